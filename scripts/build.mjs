// Bundles the CLI, the extension and the webview with esbuild.
// Usage: node scripts/build.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, chmodSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
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
if (existsSync('src/extension/extension.ts')) {
  targets.push({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  });
}
if (existsSync('webview/main.ts')) {
  targets.push({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  });
}

if (watch) {
  for (const t of targets) (await esbuild.context(t)).watch();
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  chmodSync('dist/cli.js', 0o755);
}
