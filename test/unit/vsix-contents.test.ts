/**
 * The extension's package (.vsix) holds every file of its own that the extension needs at run time.
 * The package's file list is vsce's own: `listFiles` applies `.vscodeignore` as `vsce package` does
 * (without dependencies, as `npm run package` builds the .vsix). What is needed is read from the code,
 * not listed by hand: package.json's `main`, every path the built extension joins onto its
 * `extensionUri` or requires beside itself, and every build file the install plan copies from beside
 * the hook script (`installedBundles`). Then every hook install the extension offers runs from a copy
 * of exactly the packaged files, as it does in an installed extension.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import {
  applyHooksPlan,
  installedBundles,
  planHooksInstall,
  STATUSLINE_SCRIPT_REL,
  SCRIPT_REL,
  CODEX_SCRIPT_REL,
} from '../../src/core/hooks/install';
import { hooksProblemText } from '../../src/extension/pure/error-text';
import { enT, jaT, REPO, workspace } from './helpers';

/** The files `vsce package --no-dependencies` puts into the .vsix, relative to the repository, with `/` (listed once). */
function packaged(): Promise<Set<string>> {
  listed ??= import('@vscode/vsce').then(async (vsce) => {
    const files = await vsce.listFiles({ cwd: REPO, packageManager: vsce.PackageManager.None });
    return new Set(files.map((f) => f.split(path.sep).join('/')));
  });
  return listed;
}
let listed: Promise<Set<string>> | undefined;

/** A repository path as the package names it: relative, with `/`, without `./`. */
const rel = (abs: string): string => path.relative(REPO, abs).split(path.sep).join('/');

/**
 * The extension's own files it names at run time, read from its build (dist/extension.js): each
 * `joinPath(….extensionUri, "a", "b")` and each `require("./x")` (a file beside the bundle, in dist/).
 * A path that names a folder counts as needing a file under it.
 */
function namedByExtension(): { files: string[]; folders: string[] } {
  const bundle = readFileSync(path.join(REPO, 'dist', 'extension.js'), 'utf8');
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const m of bundle.matchAll(/joinPath\(\s*[\w$.]*extensionUri\s*,\s*((?:"[^"]*"\s*,?\s*)+)\)/g)) {
    const parts = [...m[1].matchAll(/"([^"]*)"/g)].map((p) => p[1]);
    const p = parts.join('/');
    (path.extname(p) ? files : folders).add(p);
  }
  for (const m of bundle.matchAll(/\brequire\("\.\/([^"]+)"\)/g)) files.add(`dist/${m[1]}`);
  return { files: [...files], folders: [...folders] };
}

/** The extension's bundled CLI as the install command names it: dist/session-ledger.cjs under the extension's folder. */
const EXTENSION_CLI = 'dist/session-ledger.cjs';

test('the .vsix holds every file the extension names at run time and every build file its hook install copies', async () => {
  const files = await packaged();
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { main: string };
  const named = namedByExtension();
  // The scan read the build: the hook script the install command copies is among what it names.
  assert.ok(named.files.includes(EXTENSION_CLI), `the scan of dist/extension.js found ${JSON.stringify(named)}`);
  const copies = installedBundles(path.join(REPO, EXTENSION_CLI));
  const needed = [path.posix.normalize(pkg.main), ...named.files, ...Object.values(copies).map(rel)];
  assert.deepEqual(
    needed.filter((f) => !files.has(f)),
    [],
    `.vscodeignore leaves out of the package files the extension needs (packaged: ${[...files].join(', ')})`,
  );
  for (const d of named.folders)
    assert.ok(
      [...files].some((f) => f.startsWith(`${d}/`)),
      `the extension names the folder ${d}, of which the package holds no file`,
    );
});

test('every hook install the extension offers (each settings file, with and without the relay and the reminder; Codex) runs from the packaged files alone', async () => {
  const files = await packaged();
  const ext = workspace({}, 'sl-vsix-');
  for (const f of files) {
    if (!f.startsWith('dist/')) continue;
    mkdirSync(path.dirname(path.join(ext, f)), { recursive: true });
    copyFileSync(path.join(REPO, f), path.join(ext, f));
  }
  const cliBundle = path.join(ext, EXTENSION_CLI);
  const choices = [
    ...[false, true].flatMap((local) =>
      [false, true].flatMap((statusline) => [false, true].map((remind) => ({ local, statusline, remind }))),
    ),
    { codex: true },
  ];
  for (const choice of choices) {
    const dir = workspace({});
    const plan = await planHooksInstall(dir, { ...choice, cliBundle });
    const said = plan.error ? hooksProblemText(enT, rel(plan.settingsPath), plan.problem, plan.error) : 'no error';
    assert.equal(said, 'no error', JSON.stringify(choice));
    await applyHooksPlan(plan, { cliBundle });
    const written = 'codex' in choice ? [CODEX_SCRIPT_REL] : [SCRIPT_REL];
    if ('statusline' in choice && choice.statusline) written.push(STATUSLINE_SCRIPT_REL);
    for (const f of written) assert.ok(existsSync(path.join(dir, f)), `${JSON.stringify(choice)}: ${f} written`);
  }
});

test('a package without the status line script: the extension says which file its files lack and that "Hooks only" works, not to reinstall', async () => {
  const ext = workspace({}, 'sl-vsix-');
  const cliBundle = path.join(ext, EXTENSION_CLI);
  mkdirSync(path.dirname(cliBundle), { recursive: true });
  copyFileSync(path.join(REPO, EXTENSION_CLI), cliBundle);
  const dir = workspace({});
  const plan = await planHooksInstall(dir, { statusline: true, cliBundle });
  assert.deepEqual(plan.problem, {
    kind: 'no-bundle',
    script: 'statusline',
    file: installedBundles(cliBundle).statusline,
  });
  const said = hooksProblemText(enT, '.claude/settings.json', plan.problem, plan.error ?? '');
  assert.ok(said.includes(installedBundles(cliBundle).statusline), said);
  assert.match(said, /"Hooks only" installs the guard hooks without the relay/);
  assert.doesNotMatch(said, /[Rr]einstall/);
  const ja = hooksProblemText(jaT, '.claude/settings.json', plan.problem, plan.error ?? '');
  assert.match(ja, /「フックのみ」/);
  // Without the hook script itself, nothing can be installed: the words name it and the command-line tool.
  rmSync(cliBundle);
  const none = await planHooksInstall(dir, { cliBundle });
  assert.deepEqual(none.problem, { kind: 'no-bundle', script: 'hook', file: cliBundle });
  const noneSaid = hooksProblemText(enT, '.claude/settings.json', none.problem, none.error ?? '');
  assert.ok(noneSaid.includes(cliBundle), noneSaid);
  assert.doesNotMatch(noneSaid, /[Rr]einstall/);
});
