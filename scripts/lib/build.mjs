// The builds, with esbuild: the bundles in dist/ (CLI, extension, webview) and the tests' JavaScript in
// out/ (every .ts of src/, webview/ and test/unit/ transpiled one to one, no type check: `npm run
// typecheck` does that, and the landing script and CI run it).
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/** The three bundles of dist/ (the extension and the webview when their sources exist). */
export function bundleTargets({ production = false } = {}) {
  const common = {
    absWorkingDir: REPO,
    bundle: true,
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    define: { __VERSION__: JSON.stringify(pkg.version) },
    legalComments: 'none',
    // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot follow: take its ES module build.
    mainFields: ['module', 'main'],
    // markdown-it's inline-only dependencies, unused by the block outline the readers take from it
    // (see scripts/shims/): 90 KB less in every bundle that reads Markdown.
    alias: {
      entities: './scripts/shims/entities.mjs',
      'linkify-it': './scripts/shims/linkify-it.mjs',
      'punycode.js': './scripts/shims/punycode.mjs',
    },
  };
  const targets = [
    {
      ...common,
      entryPoints: ['src/cli/main.ts'],
      outfile: 'dist/cli.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      banner: { js: '#!/usr/bin/env node' },
    },
  ];
  if (existsSync(join(REPO, 'src/extension/extension.ts'))) {
    targets.push({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] });
  }
  if (existsSync(join(REPO, 'webview/main.ts'))) {
    targets.push({ ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' });
  }
  return targets;
}

/**
 * The hook script that `hooks install` copies to `.claude/hooks/session-ledger.cjs`, always minified
 * (it is committed into users' repositories; no source map goes with it). Its hot entry
 * (src/cli/hot.ts) holds the status line's commands as code and the whole CLI as source text,
 * compiled only when another command runs.
 */
export async function buildHookScript() {
  const [cli] = bundleTargets({ production: true });
  const core = await esbuild.build({ ...cli, banner: {}, write: false });
  await esbuild.build({
    ...cli,
    entryPoints: ['src/cli/hot.ts'],
    outfile: 'dist/session-ledger.cjs',
    define: { ...cli.define, __CORE_SOURCE__: JSON.stringify(core.outputFiles[0].text) },
  });
}

/** Build dist/ once. */
export async function buildBundles(opts = {}) {
  await Promise.all([...bundleTargets(opts).map((t) => esbuild.build(t)), buildHookScript()]);
  chmodSync(join(REPO, 'dist', 'cli.js'), 0o755);
}

/** Rebuild dist/ on every change until the process ends; `onEnd(result)` after each build. */
export async function watchBundles(onStart, onEnd) {
  const report = {
    name: 'report',
    setup(b) {
      b.onStart(() => onStart?.());
      b.onEnd((r) => onEnd?.(r));
    },
  };
  for (const t of bundleTargets()) await (await esbuild.context({ ...t, logLevel: 'silent', plugins: [report] })).watch();
  await buildHookScript();
}

const TEST_SOURCES = ['src', 'webview', 'test/unit'];

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * out/<same path>.js for every .ts of src/, webview/ and test/unit/ (CommonJS, Node 20, source
 * maps), after removing the previous output so a deleted test does not run on.
 */
export async function buildTests() {
  for (const d of TEST_SOURCES) rmSync(join(REPO, 'out', d), { recursive: true, force: true });
  const entryPoints = TEST_SOURCES.flatMap((d) => tsFiles(join(REPO, d))).map((f) => relative(REPO, f));
  await esbuild.build({
    absWorkingDir: REPO,
    entryPoints,
    outdir: 'out',
    outbase: '.',
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // import() becomes require(), as tsc's CommonJS output does: Node's own import() would not find
    // `../core/context` (a folder) or files without their .js.
    supported: { 'dynamic-import': false },
  });
}

/** Where the integration suites' bundles go (trusted.js, untrusted.js: extensionTestsPath modules). */
export const INTEGRATION_OUT = join(REPO, 'out', 'integration');

/** Bundle the integration runner and suites (mocha included) for the Node extension host. */
export async function buildIntegration() {
  await esbuild.build({
    entryPoints: { trusted: join(REPO, 'test/integration/trusted.ts'), untrusted: join(REPO, 'test/integration/untrusted.ts') },
    outdir: INTEGRATION_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'error',
  });
}
