/**
 * The CLI's words in the user's language: `check`, `status` and `checkpoint` print the checks, fix
 * hints and files not read in Japanese or Korean when the locale says so (LC_ALL, LC_MESSAGES, LANG),
 * with the extension's own translations (l10n/bundle.l10n.<lang>.json beside dist/); `--json` stays
 * English; a bundle that cannot be read, and a script with no package around it, leave it English.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { localeLang } from '../../src/cli/locale';
import type { JsonCheck } from '../../src/core/report/report';
import {
  CLI,
  cliProcess,
  fixtureCopy,
  gitInit,
  HOOK_SCRIPT,
  jaT,
  koT,
  REPO,
  workspace,
  write,
  type CliResult,
} from './helpers';

/** A locale as the process sees it: LANG alone (LC_ALL and LC_MESSAGES set empty, which counts as unset). */
const locale = (lang: string): NodeJS.ProcessEnv => ({ LC_ALL: '', LC_MESSAGES: '', LANG: lang });

/** S3's broken fixture in a git repository: blocking findings with fix hints, warnings, two manual items. */
function broken(): string {
  const dir = fixtureCopy('s3/broken');
  gitInit(dir);
  return dir;
}

/** No agent session anywhere: the checkpoint's session lookup finds none, whatever the machine holds. */
function quiet(): NodeJS.ProcessEnv {
  return { CLAUDE_CONFIG_DIR: workspace({}, 'sl-claude-'), CODEX_HOME: workspace({}, 'sl-codex-') };
}

/** Run `script` (a copy of dist/cli.js or a hook script) as a process in `lang`. */
function runScript(script: string, args: string[], lang: string, env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env, ...locale(lang) },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

test('the locale as POSIX tools take it: the first non-empty of LC_ALL, LC_MESSAGES, LANG; ja and ko in UTF-8, else English', () => {
  assert.equal(localeLang({ LANG: 'ja_JP.UTF-8' }), 'ja');
  assert.equal(localeLang({ LANG: 'ko_KR.UTF-8' }), 'ko');
  assert.equal(localeLang({ LANG: 'ja' }), 'ja');
  assert.equal(localeLang({ LANG: 'ko_KR.utf8' }), 'ko');
  assert.equal(localeLang({ LC_ALL: 'ja_JP.UTF-8', LANG: 'C' }), 'ja');
  assert.equal(localeLang({ LC_ALL: 'C', LANG: 'ja_JP.UTF-8' }), null);
  assert.equal(localeLang({ LC_MESSAGES: 'ko_KR.UTF-8', LANG: 'ja_JP.UTF-8' }), 'ko');
  assert.equal(localeLang({ LC_ALL: '', LC_MESSAGES: '', LANG: 'ko_KR.UTF-8' }), 'ko');
  for (const l of ['C', 'POSIX', 'C.UTF-8', 'en_US.UTF-8', 'de_DE', 'ja_JP.eucJP', 'ko_KR.EUC-KR', 'javanese', ''])
    assert.equal(localeLang({ LANG: l }), null, l);
  assert.equal(localeLang({}), null);
});

test("check and status in ja and ko: every check's message and fix hint from the extension's bundle, the verdict's word too; in C, English; --json the same in every locale", () => {
  const dir = broken();
  const json = JSON.parse(cliProcess(['check', '--root', dir, '--json'], { env: locale('C') }).stdout) as {
    systems: Array<{ checks: JsonCheck[] }>;
  };
  const checks = json.systems.flatMap((s) => s.checks);
  const fail = checks.find((c) => c.status === 'fail' && c.hintId);
  assert.ok(fail, 'a failing check with a fix hint');

  const en = cliProcess(['check', '--root', dir], { env: locale('C') });
  assert.equal(en.code, 1);
  assert.ok(en.stdout.includes(`${fail.message}  (`), en.stdout);
  assert.ok(en.stdout.includes(`fix: ${fail.hint}`), en.stdout);
  assert.match(en.stdout, /\nOverall: BROKEN\n$/);

  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const hint = tr(fail.hintId as string, ...(fail.hintArgs ?? []));
    assert.notEqual(tr(fail.messageId, ...fail.args), fail.message, 'the bundle translates the finding');
    for (const cmd of ['check', 'status']) {
      const r = cliProcess([cmd, '--root', dir], { env: locale(lang) });
      assert.equal(r.code, cmd === 'check' ? 1 : 0, r.stderr);
      for (const c of checks) assert.ok(r.stdout.includes(tr(c.messageId, ...c.args)), `${lang} ${cmd}: ${c.id}`);
      assert.ok(r.stdout.includes(tr('Fix: {0}', hint)), `${lang} ${cmd}: the fix hint`);
      assert.ok(!r.stdout.includes(fail.message), `${lang} ${cmd}: no English finding`);
      assert.ok(r.stdout.trimEnd().endsWith(`${tr('Overall')}: BROKEN`), `${lang} ${cmd}: the verdict`);
      // The id and the mark stay as they are: what a script greps for.
      assert.match(r.stdout, /^ {2,4}FAIL template {10}/m);
    }
  }

  // --json is for programs: English text and the ids, byte for byte the same whatever the locale.
  for (const cmd of [['check'], ['status'], ['checkpoint']]) {
    const outs = ['C', 'ja_JP.UTF-8', 'ko_KR.UTF-8'].map(
      (l) => cliProcess([...cmd, '--root', dir, '--json'], { env: { ...quiet(), ...locale(l) } }).stdout,
    );
    assert.ok(outs[0].startsWith('{'), outs[0]);
    assert.equal(outs[1], outs[0], `${cmd[0]} --json in ja`);
    assert.equal(outs[2], outs[0], `${cmd[0]} --json in ko`);
  }
});

test('checkpoint in ja and ko: the blocking checks it refuses on, their fix hints and the manual items in the language; a written one (nothing to preserve) lists its findings so too', () => {
  const dir = broken();
  const json = JSON.parse(
    cliProcess(['checkpoint', '--root', dir, '--json'], { env: { ...quiet(), ...locale('C') } }).stdout,
  ) as { refusals: Array<{ code: string; checks: JsonCheck[] }> };
  const blocking = json.refusals.find((r) => r.code === 'blocking-checks')?.checks ?? [];
  const manual = json.refusals.find((r) => r.code === 'manual-unconfirmed')?.checks ?? [];
  assert.ok(blocking.length && manual.length, JSON.stringify(json.refusals));
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const r = cliProcess(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale(lang) } });
    assert.equal(r.code, 1);
    for (const c of blocking) {
      assert.ok(r.stderr.includes(tr(c.messageId, ...c.args)), `${lang}: ${c.id}\n${r.stderr}`);
      assert.ok(r.stderr.includes(tr('Fix: {0}', tr(c.hintId as string, ...(c.hintArgs ?? [])))), `${lang}: fix`);
      assert.ok(!r.stderr.includes(c.message), `${lang}: no English finding`);
    }
    for (const c of manual) assert.ok(r.stderr.includes(`: ${tr(c.messageId, ...c.args)}`), `${lang}: ${c.id}`);

    const written = broken();
    const w = cliProcess(['checkpoint', '--root', written, '--nothing-to-preserve'], {
      env: { ...quiet(), ...locale(lang) },
    });
    assert.equal(w.code, 0, w.stderr);
    for (const c of blocking) assert.ok(w.stdout.includes(tr(c.messageId, ...c.args)), `${lang} written: ${c.id}`);
  }
  const en = cliProcess(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale('C') } });
  for (const c of blocking) assert.ok(en.stderr.includes(`${c.message}  (`), `C: ${c.id}`);
});

test('files present but not read: the reason in the language, in check and status', () => {
  const dir = fixtureCopy('s3/foreign');
  gitInit(dir);
  const json = JSON.parse(cliProcess(['check', '--root', dir, '--json'], { env: locale('C') }).stdout) as {
    notRead: Array<{ reason: string; reasonId: string; args: string[] }>;
  };
  assert.equal(json.notRead.length, 1);
  const [n] = json.notRead;
  for (const cmd of ['check', 'status']) {
    assert.ok(cliProcess([cmd, '--root', dir], { env: locale('C') }).stdout.includes(n.reason), cmd);
    const ja = cliProcess([cmd, '--root', dir], { env: locale('ja_JP.UTF-8') }).stdout;
    assert.ok(ja.includes(jaT(n.reasonId, ...n.args)) && !ja.includes(n.reason), `${cmd}: ${ja}`);
  }
});

/** The command-line tool's scripts copied into `<pkg>/dist/`, as the npm package lays them out; `<pkg>/dist/cli.js`. */
function packageCopy(pkg: string): string {
  mkdirSync(path.join(pkg, 'dist'), { recursive: true });
  for (const f of ['cli.js', 'session-ledger-statusline.cjs', 'session-ledger-meter.cjs', 'session-ledger.cjs'])
    copyFileSync(path.join(path.dirname(CLI), f), path.join(pkg, 'dist', f));
  mkdirSync(path.join(pkg, 'l10n'));
  return path.join(pkg, 'dist', 'cli.js');
}

test('a bundle that cannot be read or parsed leaves the CLI in English, without a word about it and without waiting', () => {
  const dir = broken();
  const args = ['check', '--root', dir];
  const pkg = workspace({}, 'sl-pkg-');
  const cli = packageCopy(pkg);
  const english = runScript(cli, args, 'C');
  assert.equal(english.code, 1);
  assert.match(english.stdout, /\nOverall: BROKEN\n$/);
  const bundle = (lang: string) => path.join(pkg, 'l10n', `bundle.l10n.${lang}.json`);

  // The copy speaks Japanese with the real bundle beside it: the cases below are English because of the bundle.
  copyFileSync(path.join(REPO, 'l10n', 'bundle.l10n.ja.json'), bundle('ja'));
  assert.ok(runScript(cli, args, 'ja_JP.UTF-8').stdout.includes(`${jaT('Overall')}: BROKEN`));

  const damaged: Array<[string, () => void]> = [
    ['missing', () => undefined],
    ['cut short', () => writeFileSync(bundle('ko'), readFileSync(bundle('ja'), 'utf8').slice(0, 5000))],
    ['not JSON', () => writeFileSync(bundle('ko'), '\u0000\u00ff garbage')],
    ['a list', () => writeFileSync(bundle('ko'), '["Overall"]')],
    ['a folder', () => mkdirSync(bundle('ko'))],
    ['a FIFO', () => execFileSync('mkfifo', [bundle('ko')])],
  ];
  for (const [what, make] of damaged) {
    make();
    const r = runScript(cli, args, 'ko_KR.UTF-8');
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, english.stdout, what);
    assert.equal(r.stderr, '', what);
    execFileSync('rm', ['-rf', bundle('ko')]);
  }
  // An entry that is no string: that sentence in English, the others translated.
  writeFileSync(bundle('ko'), JSON.stringify({ Overall: 7, '(none)': '(없음)' }));
  assert.ok(runScript(cli, args, 'ko_KR.UTF-8').stdout.endsWith('\nOverall: BROKEN\n'));
});

test("the hook script in a repository reads no bundle: a repository's files never word what it says", () => {
  const dir = broken();
  const script = path.join(dir, '.claude', 'hooks', 'session-ledger.cjs');
  mkdirSync(path.dirname(script), { recursive: true });
  copyFileSync(HOOK_SCRIPT, script);
  // A planted table where a package would keep its bundle, were the hooks folder a package's dist/.
  write(dir, '.claude/l10n/bundle.l10n.ja.json', JSON.stringify({ Overall: 'ALL FINE', 'Fix: {0}': 'ignore: {0}' }));
  const en = runScript(script, ['check', '--root', dir], 'C');
  const ja = runScript(script, ['check', '--root', dir], 'ja_JP.UTF-8');
  assert.equal(en.code, 1);
  assert.equal(ja.stdout, en.stdout);
  assert.match(ja.stdout, /\nOverall: BROKEN\n$/);
});
