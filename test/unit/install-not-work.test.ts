// What `hooks install` writes is not the session's work: right after an install, no state file is
// "older than uncommitted changes" and none is asked to mention the hook scripts, the settings file or
// the .gitignore lines. An edit made to those files afterwards is work again, and an install record a
// repository plants cannot hide any other file. Real files, real git, the install the CLI runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { applyHooksPlan, INSTALL_RECORD_REL, planHooksInstall, planHooksUninstall } from '../../src/core/hooks/install';
import { sha256 } from '../../src/core/files/fsread';
import { evaluate } from '../../src/core/report/evaluate';
import type { Check, WorkspaceReport } from '../../src/core/model/model';
import { fixtureCopy, git, gitInit, HOOK_SCRIPT, write } from './helpers';

/** S3's good workspace with `files` (path → text) added, committed, then its STATE.md written (naming HEAD). */
function s3Committed(files: Record<string, string> = {}): string {
  const dir = fixtureCopy('s3/good');
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  gitInit(dir);
  const p = path.join(dir, 'docs/state/STATE.md');
  writeFileSync(
    p,
    readFileSync(p, 'utf8').replace('(no hash recorded)', git(dir, 'rev-parse', '--short', 'HEAD').trim()),
  );
  return dir;
}

/** Files last changed an hour from now: well after the state file (freshness allows a second of slack). */
function later(dir: string, ...rels: string[]): void {
  const t = new Date(Date.now() + 3600_000);
  for (const rel of rels) utimesSync(path.join(dir, rel), t, t);
}

const INSTALLED = ['.claude/hooks/session-ledger.cjs', '.claude/settings.json', '.gitignore'];

function check(r: WorkspaceReport, id: string): Check {
  const c = r.systems.find((s) => s.id === 'S3')?.checks.find((x) => x.id === id);
  assert.ok(c, `S3 has a ${id} check`);
  return c;
}

const said = (c: Check): string => JSON.stringify(c);

test('right after `hooks install` (scripts, settings, .gitignore uncommitted) S3 is fresh and has no unexplained work', async () => {
  const dir = s3Committed();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  later(dir, ...INSTALLED);
  // The install's files are uncommitted changes as git sees them.
  const status = git(dir, 'status', '--porcelain', '--untracked-files=all');
  for (const f of INSTALLED) assert.ok(status.includes(f), status);
  const r = await evaluate(dir);
  assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
  assert.doesNotMatch(said(check(r, 'work-explained')), /settings\.json|\.gitignore|session-ledger\.cjs/);
  // What install recorded: the hash of the bytes it wrote to each user file.
  const rec = JSON.parse(readFileSync(path.join(dir, INSTALL_RECORD_REL), 'utf8'));
  assert.equal(rec.written['.gitignore'].sha256, sha256(readFileSync(path.join(dir, '.gitignore'))));
  assert.deepEqual(
    [rec.written['.gitignore'].before, rec.written['.gitignore'].absentBefore],
    [[], true],
    'install created it',
  );
  assert.equal(
    rec.written['.claude/settings.json'].sha256,
    sha256(readFileSync(path.join(dir, '.claude/settings.json'))),
  );
});

test('an edit to .gitignore after the install is work again: S3 is older than it and asked to mention it', async () => {
  const dir = s3Committed();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  appendFileSync(path.join(dir, '.gitignore'), 'dist/\n');
  later(dir, ...INSTALLED);
  const r = await evaluate(dir);
  assert.equal(check(r, 'fresh').status, 'warn', said(check(r, 'fresh')));
  assert.match(said(check(r, 'work-explained')), /\.gitignore/);
});

test('an install record the repository planted hides no other file, and no user file whose bytes differ', async () => {
  const dir = s3Committed();
  write(dir, 'src/app.ts', 'export const x = 1;\n');
  write(dir, '.gitignore', 'node_modules/\n');
  write(
    dir,
    INSTALL_RECORD_REL,
    JSON.stringify({
      written: {
        'src/app.ts': { sha256: sha256('export const x = 1;\n'), before: null },
        '.gitignore': { sha256: sha256('something else\n'), before: null },
      },
    }),
  );
  later(dir, 'src/app.ts', '.gitignore');
  const r = await evaluate(dir);
  assert.equal(check(r, 'fresh').status, 'warn', said(check(r, 'fresh')));
  const work = said(check(r, 'work-explained'));
  assert.match(work, /src\/app\.ts/);
  assert.match(work, /\.gitignore/);
});

test('uninstall drops the hashes of the files it wrote back; the record goes once nothing else is in it', async () => {
  const dir = s3Committed();
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  await applyHooksPlan(await planHooksUninstall(dir));
  assert.throws(() => readFileSync(path.join(dir, INSTALL_RECORD_REL)), /ENOENT/);
  const r = await evaluate(dir);
  assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
});

test("a committed .gitignore install appended to is install's; one the user had changed before the install is still work", async () => {
  for (const userEdit of [false, true]) {
    const dir = fixtureCopy('s3/good');
    write(dir, '.gitignore', 'node_modules/\n');
    gitInit(dir);
    const p = path.join(dir, 'docs/state/STATE.md');
    writeFileSync(
      p,
      readFileSync(p, 'utf8').replace('(no hash recorded)', git(dir, 'rev-parse', '--short', 'HEAD').trim()),
    );
    if (userEdit) appendFileSync(path.join(dir, '.gitignore'), 'secrets.env\n');
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
    later(dir, ...INSTALLED);
    const r = await evaluate(dir);
    const work = said(check(r, 'work-explained'));
    if (userEdit) {
      assert.equal(check(r, 'fresh').status, 'warn', said(check(r, 'fresh')));
      assert.match(work, /\.gitignore/);
    } else {
      assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
      assert.doesNotMatch(work, /\.gitignore/);
    }
  }
});

test("only the scripts install wrote, as it wrote them, are install's: a file renamed into .claude/hooks/ or a changed script is work", async () => {
  const dir = s3Committed();
  write(dir, 'app.ts', 'export const x = 1;\n');
  git(dir, 'add', 'app.ts');
  git(dir, 'commit', '-qm', 'app');
  mkdirSync(path.join(dir, '.claude/hooks'), { recursive: true });
  git(dir, 'mv', 'app.ts', '.claude/hooks/session-ledger-app.ts');
  later(dir, '.claude/hooks/session-ledger-app.ts');
  let work = said(check(await evaluate(dir), 'work-explained'));
  assert.match(work, /app\.ts/);
  // Installed, then the script changed: the change is work.
  const other = s3Committed();
  await applyHooksPlan(await planHooksInstall(other, { cliBundle: HOOK_SCRIPT }));
  appendFileSync(path.join(other, '.claude/hooks/session-ledger.cjs'), '// changed\n');
  later(other, ...INSTALLED);
  work = said(check(await evaluate(other), 'work-explained'));
  assert.match(work, /session-ledger\.cjs/);
});

test("two installs in a row, nothing committed between (hooks install, then --statusline), are still install's", async () => {
  const dir = s3Committed({ '.claude/settings.json': '{ "model": "opus" }\n' });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true }));
  later(dir, ...INSTALLED, '.claude/hooks/session-ledger-statusline.cjs');
  const r = await evaluate(dir);
  assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
  assert.doesNotMatch(said(check(r, 'work-explained')), /settings\.json|\.gitignore/);
});

// git stores the CRLF text with LF ends under either setting; install's edit of it is install's (git says how it stores it).
for (const [setting, setUp] of [
  ['core.autocrlf', (dir: string) => git(dir, 'config', 'core.autocrlf', 'true')],
  ['a text attribute with eol=crlf', (dir: string) => write(dir, '.gitattributes', '.gitignore text eol=crlf\n')],
] as const) {
  test(`${setting} (CRLF in the work tree, LF in git): an install into a committed .gitignore is install's`, async () => {
    const dir = s3Committed();
    setUp(dir);
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\r\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'gitignore');
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
    later(dir, ...INSTALLED);
    const r = await evaluate(dir);
    assert.doesNotMatch(said(check(r, 'work-explained')), /\.gitignore/);
    assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
  });
}

test("install, the install committed, then --statusline: the second install's edit is install's too", async () => {
  const dir = fixtureCopy('s3/good');
  write(dir, '.claude/settings.json', '{ "model": "opus" }\n');
  gitInit(dir);
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'install');
  const p = path.join(dir, 'docs/state/STATE.md');
  writeFileSync(
    p,
    readFileSync(p, 'utf8').replace('(no hash recorded)', git(dir, 'rev-parse', '--short', 'HEAD').trim()),
  );
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT, statusline: true }));
  later(dir, '.claude/settings.json', '.claude/hooks/session-ledger-statusline.cjs');
  const r = await evaluate(dir);
  assert.doesNotMatch(said(check(r, 'work-explained')), /settings\.json/);
  assert.equal(check(r, 'fresh').status, 'pass', said(check(r, 'fresh')));
});

test("a user's own LF→CRLF rewrite of a committed .gitignore (no core.autocrlf) stays work after an install", async () => {
  const dir = s3Committed({ '.gitignore': 'node_modules/\n' });
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\r\n');
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  later(dir, ...INSTALLED);
  const r = await evaluate(dir);
  assert.match(said(check(r, 'work-explained')), /\.gitignore/);
});

test("asking git how it stores the .gitignore runs no filter the repository's config defines", async () => {
  const dir = s3Committed({ '.gitattributes': '.gitignore filter=evil\n', '.gitignore': 'node_modules/\n' });
  const pwned = path.join(dir, 'pwned');
  git(dir, 'config', 'filter.evil.clean', `touch '${pwned}'; cat`);
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  assert.equal(existsSync(pwned), false, 'the clean filter ran');
  later(dir, ...INSTALLED);
  assert.doesNotMatch(said(check(await evaluate(dir), 'work-explained')), /\.gitignore/);
});

// A FIFO at an attribute file would hold `git hash-object` (and the install's write lock) until git's time limit.
test(
  'an attribute file that is a FIFO holds no install: git is not asked how it stores the file',
  { timeout: 8_000 },
  async () => {
    const dir = s3Committed();
    git(dir, 'config', 'core.autocrlf', 'true');
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\r\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'gitignore');
    execFileSync('mkfifo', [path.join(dir, '.gitattributes')]);
    await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
    const rec = JSON.parse(readFileSync(path.join(dir, INSTALL_RECORD_REL), 'utf8'));
    // The names of the bytes themselves only (SHA-1 and SHA-256): not git's, which would be the LF text's.
    assert.deepEqual(rec.written['.gitignore'].before.length, 2, JSON.stringify(rec.written['.gitignore']));
    assert.equal(rec.written['.gitignore'].before.includes(git(dir, 'rev-parse', 'HEAD:.gitignore').trim()), false);
  },
);
