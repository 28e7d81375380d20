// The builds, with esbuild: the bundles in dist/ (CLI, extension, webview) and the tests' JavaScript in
// out/ (every .ts of src/, webview/ and test/unit/ transpiled one to one, no type check: `npm run
// typecheck` does that, and the landing script and CI run it).
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { templatesIn } from '../messages.mjs';

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
    // The banner marks when the extension host starts running the bundle: the first scan is timed from there (code loading included).
    targets.push({
      ...common,
      entryPoints: ['src/extension/extension.ts'],
      outfile: 'dist/extension.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      banner: { js: 'var __sessionLedgerLoadStart = performance.now();' },
    });
  }
  if (existsSync(join(REPO, 'webview/main.ts'))) {
    targets.push({
      ...common,
      entryPoints: ['webview/main.ts'],
      outfile: 'dist/webview.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
    });
  }
  return targets;
}

/** The status line's own script (src/core/hooks/files.ts): the hook script's first two parts (the status line, its transcript meter). */
const STATUSLINE_SCRIPT = 'session-ledger-statusline.cjs';

/** What versions before the one-file hook script wrote beside it: removed from dist/ by the build. */
const LEGACY_HOOK_CORE = 'session-ledger-core.br';

/** The lines of the hook script after which a part follows in a block comment (src/core/hooks/files.ts). */
export const HOOK_TRANSCRIPT_MARKER = '// ---- session-ledger transcript ----';
export const HOOK_METER_MARKER = '// ---- session-ledger meter ----';
export const HOOK_CORE_MARKER = '// ---- session-ledger core ----';
export const HOOK_HOOKS_MARKER = '// ---- session-ledger hooks ----';
export const HOOK_REST_MARKER = '// ---- session-ledger rest ----';
export const HOOK_YAML_MARKER = '// ---- session-ledger yaml ----';
export const HOOK_WORDS_MARKER = '// ---- session-ledger words ----';
/** The languages of the words' part, in the order each entry lists its translations (src/core/hooks/files.ts). */
const WORDS_LANGS = ['ja', 'ko'];
/** The function whose body holds the part after each marker (src/core/hooks/files.ts). */
const PART_FUNCTION = {
  [HOOK_TRANSCRIPT_MARKER]: 'sessionLedgerTranscript',
  [HOOK_METER_MARKER]: 'sessionLedgerMeter',
  [HOOK_CORE_MARKER]: 'sessionLedgerCore',
  [HOOK_HOOKS_MARKER]: 'sessionLedgerHooks',
  [HOOK_REST_MARKER]: 'sessionLedgerRest',
  [HOOK_YAML_MARKER]: 'sessionLedgerYaml',
  [HOOK_WORDS_MARKER]: 'sessionLedgerWords',
};
/** What src/cli/parts.ts holds in place of the lines on which the parts' functions begin, which the build writes in. */
const PART_LINES_PLACEHOLDER = '__SESSION_LEDGER_PART_LINES__';
/** How the hook script writes each `*\/` of a part in a comment, so that the block comment holding it does not end there (src/core/hooks/files.ts). */
export const CORE_END_ESCAPED = '*\\/';

const rel = (f) => relative(REPO, f).split('\\').join('/');

/** The src/ modules a build's metafile lists (the keys of a layer's module table). */
function srcInputs(metafile) {
  return Object.keys(metafile.inputs).filter((f) => /^(src|webview)\/.*\.ts$/.test(f));
}

/**
 * An entry that re-exports `entry` and adds `__m`: every src/ module of the layer by its path, so
 * that the extension uses this layer's instance of a module instead of bundling a second copy.
 */
function tableEntry(entry, modules) {
  // Getters over require(): esbuild then initialises each module on first use, as a dynamic import
  // does, instead of all of them when the file loads (a static import would).
  const lines = [`export * from ${JSON.stringify(`./${entry}`)};`, 'export const __m = {'];
  for (const m of modules) lines.push(`  get ${JSON.stringify(m)}() { return require(${JSON.stringify(`./${m}`)}); },`);
  lines.push('};');
  return { contents: lines.join('\n'), resolveDir: REPO, sourcefile: `${entry}.table.ts`, loader: 'ts' };
}

/**
 * An esbuild plugin that takes every module of the given tables from there instead of bundling it:
 * `tables` is a list of { modules: Set of src paths, expr: the JavaScript expression of that layer's `__m` }.
 */
function fromTables(tables, external = []) {
  return {
    name: 'from-tables',
    setup(b) {
      for (const x of external)
        b.onResolve({ filter: new RegExp(`^${x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }, () => ({
          path: x,
          external: true,
        }));
      b.onResolve({ filter: /^\.\.?\// }, async (a) => {
        if (a.pluginData === 'inner') return undefined;
        const r = await b.resolve(a.path, {
          kind: a.kind,
          importer: a.importer,
          resolveDir: a.resolveDir,
          pluginData: 'inner',
        });
        if (r.errors.length || !r.path) return undefined;
        const key = rel(r.path);
        const t = tables.find((x) => x.modules.has(key));
        return t ? { path: key, namespace: 'table', pluginData: t.expr } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'table' }, (a) => ({
        contents: `module.exports = (${a.pluginData})[${JSON.stringify(a.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/** Build `entry` as a layer with its module table, until the table lists every src module it holds. */
/**
 * jsonc-parser's modules run code at their top level (enums built by functions, a cache of 600 indent
 * strings) that esbuild keeps wherever the package is imported, used or not: declared free of side
 * effects, a part that reaches the package without calling it (the hooks' part, through the checkpoint's
 * "does the guard run here") holds none of it, and a hook runs none of it.
 */
const pureJsonc = {
  name: 'pure-jsonc',
  setup(build) {
    const esm = join(REPO, 'node_modules', 'jsonc-parser', 'lib', 'esm');
    build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: join(esm, 'main.js'), sideEffects: false }));
    build.onResolve({ filter: /^\.\.?\/[\w./-]+$/ }, (args) =>
      args.importer.startsWith(esm + sep)
        ? { path: `${resolve(args.resolveDir, args.path)}.js`, sideEffects: false }
        : undefined,
    );
  },
};

/** `opts` with the plugins every part of the hook script takes. */
const partOptions = (opts) => ({ ...opts, plugins: [...(opts.plugins ?? []), pureJsonc] });

async function buildLayer(opts, entry) {
  let modules = [];
  for (let i = 0; i < 4; i++) {
    const r = await esbuild.build({
      ...partOptions(opts),
      entryPoints: undefined,
      stdin: tableEntry(entry, modules),
      write: false,
      metafile: true,
    });
    const found = srcInputs(r.metafile).filter((m) => !m.endsWith('.table.ts'));
    if (found.length === modules.length && found.every((m) => modules.includes(m)))
      return { text: r.outputFiles[0].text, modules: new Set(modules) };
    modules = found;
  }
  throw new Error(`the module table of ${entry} does not settle`);
}

/** Build `entry` as one self-contained part, tree-shaken (no module table: nothing outside takes its modules). */
async function buildPart(opts, entry) {
  const r = await esbuild.build({ ...partOptions(opts), entryPoints: [entry], write: false, metafile: true });
  return { text: r.outputFiles[0].text, modules: new Set(srcInputs(r.metafile)) };
}

/**
 * `import * as fs from 'node:fs'` bundled: esbuild wraps the built-in module in `__toESM`, which copies
 * each of its properties into a new object, once per importing module, on every run. A namespace import
 * reads only the module's own properties, so the module itself serves: the wrap is dropped. (A default
 * import, `import fs from 'node:fs'`, reads `.default`, which only the wrap adds: the build refuses one.)
 */
function plainBuiltins(text, name) {
  const def = /\bimport_node_\w+\.default\b/.exec(text);
  if (def) throw new Error(`${name}: a default import of a Node built-in (${def[0]}): import it as a namespace`);
  return text.replace(/__toESM\((require\("node:[\w/]+"\))\)/g, '$1');
}

/** A part's code as the body of one block comment: ASCII only, each star-slash written CORE_END_ESCAPED. */
function asComment(text, name) {
  // `*\/` in the file stands for `*/` of a part (loadPart turns every one back): a part must hold none of its own.
  if (text.includes(CORE_END_ESCAPED))
    throw new Error(
      `the hook script's ${name} holds ${CORE_END_ESCAPED}, which loadPart would read as */: write it another way ([*]\\/ in a regular expression)`,
    );
  return asciiOnly(text).replace(/\n$/, '').split('*/').join(CORE_END_ESCAPED);
}

/**
 * The yaml library's modules whose ES module build (made for browsers) differs from its Node build:
 * `!!binary` decoded with atob (which refuses what Buffer takes) instead of Buffer, warnings said with
 * console.warn instead of process.emitWarning, and the LOG_TOKENS and LOG_STREAM debug output. Each is
 * taken from the Node build instead, its `var x = require('y');` lines made `import * as x from 'y';`
 * and its `exports.x = x;` lines `export { x };` (the build refuses a module of another shape).
 */
const YAML_NODE_ONLY =
  /[\\/]node_modules[\\/]yaml[\\/]browser[\\/]dist[\\/]((?:schema[\\/]yaml-1\.1[\\/]binary|compose[\\/]composer|log|parse[\\/]parser)\.js)$/;
const yamlAsForNode = {
  name: 'yaml-as-for-node',
  setup(b) {
    b.onLoad({ filter: YAML_NODE_ONLY }, (a) => {
      const rel = YAML_NODE_ONLY.exec(a.path)[1];
      const cjs = readFileSync(join(REPO, 'node_modules', 'yaml', 'dist', rel), 'utf8');
      const esm = cjs
        .replace(/^'use strict';\n/, '')
        .replace(
          /^var (\w+) = require\('([^']+)'\);$/gm,
          (_, v, m) => `import * as ${v} from '${/^[.]/.test(m) ? m : `node:${m}`}';`,
        )
        .replace(/^exports\.(\w+) = \1;$/gm, 'export { $1 };');
      if (/\brequire\(|\bexports\./.test(esm))
        throw new Error(`yaml's dist/${rel} is not of the shape the build turns into a module`);
      return { contents: esm, loader: 'js' };
    });
  },
};

/** The CLI's production options for a bundle built in memory, plain: not minified, no source map. */
function plainOptions() {
  const [cli] = bundleTargets({ production: true });
  return { ...cli, outfile: undefined, minify: false, sourcemap: false };
}

/**
 * The hook script that `hooks install` copies to `.claude/hooks/session-ledger.cjs`: one plain
 * JavaScript file, not minified and without a source map (it is committed into users' repositories,
 * where a reviewer reads it), nothing compressed, nothing compiled ahead, nothing kept elsewhere. It
 * holds these bundles (src/cli/hot.ts says what each runs):
 * - src/cli/hot.ts and the status line as code, all Node parses on every run;
 * - the line HOOK_TRANSCRIPT_MARKER, then src/cli/transcript.ts (the status line's figure from the
 *   transcript it names, when Claude Code sent none) inside one block comment;
 * - the line HOOK_METER_MARKER, then src/cli/meter.ts (`context`, `hook remind`) inside one block comment;
 * - the line HOOK_CORE_MARKER, then src/cli/main.ts (the whole CLI, with its module table for the
 *   extension) inside one block comment;
 * - the line HOOK_HOOKS_MARKER, then src/cli/hooks-main.ts (the PreCompact and SessionStart hooks)
 *   inside one block comment, bundled on its own with only the code it reaches (every system's rules
 *   among it: the guard runs them on a state file changed since the checkpoint) and no module table:
 *   a hook compiles about two thirds of the core's code and runs its modules' top level with the part,
 *   without a lazy wrapper around each (docs/benchmark.md, rounds 13 and 21, has the measures). The
 *   same modules are also in the core, for everything else;
 * - the line HOOK_REST_MARKER, then src/cli/rest.ts (the commands in REST_COMMANDS, which the hooks,
 *   the status line and `status` never run) with its module table, taking every module the core
 *   holds from the core's table: `status` compiles about 14 % less code;
 * - the line HOOK_YAML_MARKER, then the YAML library inside one block comment: the core requires it
 *   only for a YAML text its own plain reader does not take, so a hook compiles a quarter less;
 * - the line HOOK_WORDS_MARKER, then the hooks' Japanese and Korean words (`hookWords`) inside one
 *   block comment: a table, compiled only when the locale names one of them, so the hook script
 *   installed in a repository speaks those languages without a file beside it.
 * Each part is the body of a function that is never called (a line `function <name>() {`, a line
 * `/*`, the code with every star-slash written `*\/`, a line `*\/` and a line `}`), so Node skips it
 * as a comment when it loads the file (scanning a block comment costs a small part of parsing the
 * same text as code). `loadPart` takes a part from the function's text (V8 keeps the script's source:
 * the file is not read again), turns each `*\/` back into a star-slash and compiles it when a command
 * needs it; the build writes the line each function begins on into part 1, for stack traces. Every
 * character outside ASCII is written as a \u escape (in a string, a regular expression or a comment
 * it means the same): one such character anywhere makes V8 hold the whole file as two-byte text,
 * which Node then reads and skips at about twice the cost on every status line run.
 * The status line's own script (STATUSLINE_SCRIPT, which the relay runs) is the file's first two parts
 * only: Node reads every byte of the script it runs, and a megabyte of comment costs the status line
 * several milliseconds on every refresh. It takes every other part from the hook script beside it.
 * Returns the module sets of the meter and of the core (for the extension, which loads the hook script).
 */
export async function buildHookScript() {
  const cli = plainOptions();
  const common = { ...cli, banner: {} };
  const restStubs = fromTables(
    [{ modules: REST_COMMANDS, expr: 'require("session-ledger-rest").__m' }],
    ['session-ledger-rest'],
  );
  const [hot, transcript, meter, hooks, core, yaml] = await Promise.all([
    buildPart({ ...common, banner: cli.banner }, 'src/cli/hot.ts'),
    buildPart(common, 'src/cli/transcript.ts'),
    buildPart(common, 'src/cli/meter.ts'),
    buildPart({ ...common, external: ['yaml'] }, 'src/cli/hooks-main.ts'),
    // The YAML library is a part of its own: the core requires it only for a text its plain reader does not take.
    // The commands in REST_COMMANDS are taken from the rest's part, when one runs.
    buildLayer({ ...common, external: ['yaml'], plugins: [restStubs] }, 'src/cli/main.ts'),
    // The library's ES module build (its package's `default` export condition, which a neutral platform
    // takes where Node's takes its CommonJS build), with Node's own modules where the two builds differ
    // (`yamlAsForNode`): the same code as Node's build, without a CommonJS wrapper and an
    // `exports.x = x` line per module, 52 KB less.
    esbuild.build({
      ...common,
      platform: 'neutral',
      external: ['node:buffer', 'node:process'],
      plugins: [yamlAsForNode],
      entryPoints: undefined,
      // Only the names the code takes (src/core/markdown/yaml-names.ts): the library's code none of them
      // reaches (its stringify-only and CST helpers) stays out.
      stdin: {
        contents: `export { ${yamlNames().join(', ')} } from 'yaml';`,
        resolveDir: REPO,
        sourcefile: 'yaml.mjs',
        loader: 'js',
      },
      write: false,
    }),
  ]);
  // The rest: the modules only those commands need; every module the core holds is the core's.
  const rest = await buildLayer(
    {
      ...common,
      external: ['yaml'],
      plugins: [
        fromTables([{ modules: core.modules, expr: 'require("session-ledger-core").__m' }], ['session-ledger-core']),
      ],
    },
    'src/cli/rest.ts',
  );
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  rmSync(join(REPO, 'dist', LEGACY_HOOK_CORE), { force: true });
  const part = (marker, text, name) => [
    marker,
    `function ${PART_FUNCTION[marker]}() {`,
    '/*',
    asComment(text, name),
    '*/',
    '}',
  ];
  const hotText = asciiOnly(plainBuiltins(hot.text, 'status line')).replace(/\n*$/, '');
  const transcriptPart = part(
    HOOK_TRANSCRIPT_MARKER,
    plainBuiltins(transcript.text, 'transcript meter'),
    'transcript meter',
  );
  const meterPart = part(HOOK_METER_MARKER, plainBuiltins(meter.text, 'meter'), 'meter');
  const corePart = part(HOOK_CORE_MARKER, plainBuiltins(core.text, 'core'), 'core');
  const hooksPart = part(HOOK_HOOKS_MARKER, plainBuiltins(hooks.text, 'hooks'), 'hooks');
  const restPart = part(HOOK_REST_MARKER, plainBuiltins(rest.text, 'rest'), 'rest');
  const yamlPart = part(HOOK_YAML_MARKER, yaml.outputFiles[0].text, 'YAML library');
  const wordsPart = part(HOOK_WORDS_MARKER, await hookWords(common), 'Japanese and Korean words');
  // The line on which each part's function begins (the line after its marker), for part 1 to name in stack traces.
  const lines = (xs) => xs.join('\n').split('\n').length;
  const first = lines([hotText]) + 2;
  const at = [first];
  for (const p of [transcriptPart, meterPart, corePart, hooksPart, restPart, yamlPart])
    at.push(at[at.length - 1] + lines(p));
  const placeholder = `"${PART_LINES_PLACEHOLDER}"`;
  if (hotText.split(placeholder).length !== 2) throw new Error(`the status line's part must hold ${placeholder} once`);
  const head = [hotText.replace(placeholder, `"${at.join(',')}"`), ...transcriptPart];
  const tail = [...meterPart, ...corePart, ...hooksPart, ...restPart, ...yamlPart, ...wordsPart, ''];
  writeFileSync(join(REPO, 'dist', 'session-ledger.cjs'), [...head, ...tail].join('\n'));
  writeFileSync(join(REPO, 'dist', STATUSLINE_SCRIPT), [...head, ''].join('\n'));
  return { meter: meter.modules, core: core.modules, rest: rest.modules };
}

/**
 * The hooks' Japanese and Korean words as a part's code: what the guard's block and the reminder say
 * (src/cli/hook-words.ts: the templates of its WORDED_MODULES, and the messages they pass on), each
 * template the extension's l10n bundles translate (l10n/bundle.l10n.<lang>.json, so the extension, the
 * CLI and the hooks say the same) with its translation in each of WORDS_LANGS, as one object (the
 * template once, then its translations in WORDS_LANGS' order), every character outside ASCII a \u
 * escape of JSON.
 */
async function hookWords(opts) {
  const built = await esbuild.build({ ...opts, entryPoints: ['src/cli/hook-words.ts'], write: false });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(
    mod,
    mod.exports,
    createRequire(join(REPO, 'package.json')),
  );
  const { WORDED_MODULES, passedOn } = mod.exports;
  const said = new Set([
    ...WORDED_MODULES.flatMap((m) => templatesIn(readFileSync(join(REPO, m), 'utf8'))),
    ...passedOn(),
  ]);
  const bundles = WORDS_LANGS.map((l) => JSON.parse(readFileSync(join(REPO, 'l10n', `bundle.l10n.${l}.json`), 'utf8')));
  const entries = [...said]
    .sort()
    .filter((k) => bundles.some((b) => typeof b[k] === 'string'))
    .map(
      (k) =>
        `${JSON.stringify(k)}:\n[${bundles.map((b) => JSON.stringify(typeof b[k] === 'string' ? b[k] : null)).join(',\n')}],`,
    );
  const escaped = entries
    .join('\n')
    .replace(/[^\x00-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `module.exports = {\n${escaped}\n};\n`;
}

/** The names of the yaml library the code takes at run time (src/core/markdown/yaml-names.ts, `YAML_NAMES`). */
function yamlNames() {
  const src = readFileSync(join(REPO, 'src', 'core', 'markdown', 'yaml-names.ts'), 'utf8');
  const list = /YAML_NAMES = \[([^\]]*)\] as const;/.exec(src);
  const names = list ? [...list[1].matchAll(/'(\w+)'/g)].map((m) => m[1]) : [];
  if (!names.length) throw new Error('src/core/markdown/yaml-names.ts names no YAML_NAMES');
  return names;
}

/** `text` with every UTF-16 code unit above 0x7E written as `\\uXXXX` (an astral character as its surrogate pair). */
function asciiOnly(text) {
  if (/\\[^\x00-\x7e]/.test(text))
    throw new Error('the hook script escapes a non-ASCII character with a backslash: \\u it by hand');
  return text.replace(/[^\x00-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The extension's build options over the hook script: every module of the core is taken from
 * dist/session-ledger.cjs's core at run time, so the .vsix carries one copy, except the meter's
 * modules, which the extension holds itself: the status bar's meter runs at activation and must not
 * compile the whole core; and the extension's own modules the CLI borrows.
 */
export function sharedExtension(target, tables) {
  const core = new Set([...tables.core].filter((m) => !tables.meter.has(m)));
  // The extension's own modules that the CLI borrows (its words for a refusal, src/cli/refused.ts) stay
  // in the extension: taken from the rest's table, loading the extension would compile the core and the rest.
  const rest = new Set([...tables.rest].filter((m) => !m.startsWith('src/extension/')));
  return {
    ...target,
    plugins: [
      ...(target.plugins ?? []),
      fromTables(
        [
          { modules: core, expr: 'require("./session-ledger.cjs").loadCore().__m' },
          { modules: rest, expr: 'require("./session-ledger.cjs").loadRest().__m' },
        ],
        ['./session-ledger.cjs'],
      ),
    ],
  };
}

/**
 * What the hooks and `status` never run: the commands the core takes from a part of their own
 * (src/cli/rest.ts), and the manuals (asked for help and usage errors only), so a hook compiles about
 * 14 % less code (callgrind: 12-17 M fewer instructions for the hooks and `status`).
 */
const REST_COMMANDS = new Set([
  ...['hooks', 'init', 'enable-ledger', 'attest', 'compact-state', 'rotate-log', 'context', 'statusline'].map(
    (c) => `src/cli/commands/${c}.ts`,
  ),
  'src/cli/help.ts',
]);

/** The command-line tool's meter commands as plain code, which dist/cli.js runs (src/cli/meter-script.ts). */
const METER_SCRIPT = 'session-ledger-meter.cjs';

/**
 * dist/cli.js, the `session-ledger` command (src/cli/cli.ts), and the meter's script it runs for
 * `context` and `hook remind` (src/cli/meter-script.ts); every other command goes to the status
 * line's script beside it, and through it to the hook script.
 */
async function buildCli() {
  const common = { ...plainOptions(), write: false };
  const [entry, meter] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ['src/cli/cli.ts'],
      // The two scripts beside it, as they are.
      external: [`./${METER_SCRIPT}`, `./${STATUSLINE_SCRIPT}`],
    }),
    esbuild.build({ ...common, banner: {}, entryPoints: ['src/cli/meter-script.ts'] }),
  ]);
  writeFileSync(join(REPO, 'dist', METER_SCRIPT), plainBuiltins(meter.outputFiles[0].text, "meter's script"));
  writeFileSync(join(REPO, 'dist', 'cli.js'), plainBuiltins(entry.outputFiles[0].text, 'CLI'));
  rmSync(join(REPO, 'dist', 'cli.js.map'), { force: true });
}

/** Build dist/ once. */
export async function buildBundles(opts = {}) {
  const targets = bundleTargets(opts);
  const ext = targets.find((t) => t.outfile === 'dist/extension.js');
  const cli = targets.find((t) => t.outfile === 'dist/cli.js');
  const tables = buildHookScript();
  await Promise.all([
    ...targets.filter((t) => t !== ext && t !== cli).map((t) => esbuild.build(t)),
    tables.then((t) => ext && esbuild.build(sharedExtension(ext, t))),
    tables.then(buildCli),
  ]);
  chmodSync(join(REPO, 'dist', 'cli.js'), 0o755);
}

/**
 * Rebuild dist/ on every change until the process ends; `onEnd(result)` after each build. Here the
 * CLI and the extension bundle their own copy of the core (with source maps), so a change to the
 * core reaches them without rebuilding the hook script, which is built once at the start.
 */
export async function watchBundles(onStart, onEnd) {
  const report = {
    name: 'report',
    setup(b) {
      b.onStart(() => onStart?.());
      b.onEnd((r) => onEnd?.(r));
    },
  };
  for (const t of bundleTargets())
    await (await esbuild.context({ ...t, logLevel: 'silent', plugins: [report] })).watch();
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
    entryPoints: {
      trusted: join(REPO, 'test/integration/trusted.ts'),
      untrusted: join(REPO, 'test/integration/untrusted.ts'),
    },
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
