// Bundles the CLI, the extension and the webview with esbuild into dist/.
// Usage: node scripts/build.mjs [--production] [--tests] [--watch]
//   --tests    also transpile src/, webview/ and test/unit/ into out/ for node --test (what `npm test` runs first;
//              on a fresh clone it installs the npm dependencies first)
//   --watch    rebuild dist/ on every change (`npm run watch`; VS Code's F5 starts it as its build task)
import { ensureDeps } from './ensure-deps.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

if (tests) ensureDeps();
const { buildBundles, buildTests, watchBundles } = await import('./lib/build.mjs');

if (watch) {
  // One line per round of rebuilds (the three bundles rebuild together), in a form the VS Code task's
  // problem matcher reads (.vscode/tasks.json).
  let active = 0;
  let errors = 0;
  await watchBundles(
    () => {
      if (active++ === 0) {
        errors = 0;
        console.log('[watch] build started');
      }
    },
    (r) => {
      for (const m of r.errors) {
        const l = m.location;
        console.log(l ? `${l.file}:${l.line}:${l.column + 1}: error: ${m.text}` : `error: ${m.text}`);
      }
      errors += r.errors.length;
      if (--active === 0) console.log(`[watch] build finished${errors ? ` with ${errors} error(s)` : ''}`);
    },
  );
} else {
  await Promise.all([buildBundles({ production }), tests ? buildTests() : null]);
}
