/**
 * The CLI's words in the user's language: `check`, `status` and `checkpoint` print the checks, fix
 * hints and files not read in Japanese or Korean when the locale says so (LC_ALL, LC_MESSAGES, LANG),
 * with the extension's own translations (l10n/bundle.l10n.<lang>.json beside dist/); `--json` stays
 * English; a bundle that cannot be read, and a script with no package around it, leave it English.
 * The built CLI (dist/cli.js, beside the package's l10n/) runs in this process's CLI worker with the locale
 * as its environment, as it reads it per command; the package's copies and the hook script run as processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { localeLang } from '../../src/cli/locale';
import { encodeClaudeProjectDir } from '../../src/core/context';
import { format, hintMsg, render, saidMsg, type Msg } from '../../src/core/model/messages';
import type { JsonCheck } from '../../src/core/report/report';
import { asst, lines, ofFolder } from './context-records';
import {
  CLI,
  cli,
  cliProcess,
  fixtureCopy,
  gitInit,
  HOOK_SCRIPT,
  jaT,
  koT,
  locale,
  LOCALE_LANGS,
  REPO,
  workspace,
  write,
  type CliResult,
} from './helpers';

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
  const json = JSON.parse(cli(['check', '--root', dir, '--json'], { env: locale('C') }).stdout) as {
    systems: Array<{ checks: JsonCheck[] }>;
  };
  const checks = json.systems.flatMap((s) => s.checks);
  const fail = checks.find((c) => c.status === 'fail' && c.hintId);
  assert.ok(fail, 'a failing check with a fix hint');

  const en = cli(['check', '--root', dir], { env: locale('C') });
  assert.equal(en.code, 1);
  assert.ok(en.stdout.includes(`${fail.message}  (`), en.stdout);
  assert.ok(en.stdout.includes(`fix: ${fail.hint}`), en.stdout);
  assert.match(en.stdout, /\nOverall: BROKEN\n\/compact [^\n]*\n$/);

  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const hint = render(hintMsg(fail) as Msg, tr);
    assert.notEqual(render(saidMsg(fail), tr), fail.message, 'the bundle translates the finding');
    for (const cmd of ['check', 'status']) {
      const r = cli([cmd, '--root', dir], { env: locale(lang) });
      assert.equal(r.code, cmd === 'check' ? 1 : 0, r.stderr);
      for (const c of checks) assert.ok(r.stdout.includes(render(saidMsg(c), tr)), `${lang} ${cmd}: ${c.id}`);
      assert.ok(r.stdout.includes(tr('Fix: {0}', hint)), `${lang} ${cmd}: the fix hint`);
      assert.ok(!r.stdout.includes(fail.message), `${lang} ${cmd}: no English finding`);
      // The verdict, then what the guard would do with /compact (in the same language).
      assert.ok(r.stdout.includes(`\n${tr('Overall')}: BROKEN\n/compact`), `${lang} ${cmd}: the verdict`);
      // The id and the mark stay as they are: what a script greps for.
      assert.match(r.stdout, /^ {2,4}FAIL template {10}/m);
    }
  }

  // --json is for programs: English text and the ids, byte for byte the same whatever the locale.
  for (const cmd of [['check'], ['status'], ['checkpoint']]) {
    const outs = ['C', 'ja_JP.UTF-8', 'ko_KR.UTF-8'].map(
      (l) => cli([...cmd, '--root', dir, '--json'], { env: { ...quiet(), ...locale(l) } }).stdout,
    );
    assert.ok(outs[0].startsWith('{'), outs[0]);
    assert.equal(outs[1], outs[0], `${cmd[0]} --json in ja`);
    assert.equal(outs[2], outs[0], `${cmd[0]} --json in ko`);
  }
});

test('checkpoint in ja and ko: the blocking checks it refuses on, their fix hints and the manual items in the language; a written one (nothing to preserve) lists its findings so too', () => {
  const dir = broken();
  const json = JSON.parse(
    cli(['checkpoint', '--root', dir, '--json'], { env: { ...quiet(), ...locale('C') } }).stdout,
  ) as { refusals: Array<{ code: string; checks: JsonCheck[] }> };
  const blocking = json.refusals.find((r) => r.code === 'blocking-checks')?.checks ?? [];
  const manual = json.refusals.find((r) => r.code === 'manual-unconfirmed')?.checks ?? [];
  assert.ok(blocking.length && manual.length, JSON.stringify(json.refusals));
  for (const [lang, tr] of [
    ['ja_JP.UTF-8', jaT],
    ['ko_KR.UTF-8', koT],
  ] as const) {
    const r = cli(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale(lang) } });
    assert.equal(r.code, 1);
    for (const c of blocking) {
      assert.ok(r.stderr.includes(render(saidMsg(c), tr)), `${lang}: ${c.id}\n${r.stderr}`);
      assert.ok(r.stderr.includes(tr('Fix: {0}', render(hintMsg(c) as Msg, tr))), `${lang}: fix`);
      assert.ok(!r.stderr.includes(c.message), `${lang}: no English finding`);
    }
    for (const c of manual) assert.ok(r.stderr.includes(`: ${render(saidMsg(c), tr)}`), `${lang}: ${c.id}`);

    const written = broken();
    const w = cli(['checkpoint', '--root', written, '--nothing-to-preserve'], {
      env: { ...quiet(), ...locale(lang) },
    });
    assert.equal(w.code, 0, w.stderr);
    for (const c of blocking) assert.ok(w.stdout.includes(render(saidMsg(c), tr)), `${lang} written: ${c.id}`);
  }
  const en = cli(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale('C') } });
  for (const c of blocking) assert.ok(en.stderr.includes(`${c.message}  (`), `C: ${c.id}`);
});

test('files present but not read: the reason in the language, in check and status', () => {
  const dir = fixtureCopy('s3/foreign');
  gitInit(dir);
  const json = JSON.parse(cli(['check', '--root', dir, '--json'], { env: locale('C') }).stdout) as {
    notRead: Array<{ reason: string; reasonId: string; args: string[] }>;
  };
  assert.equal(json.notRead.length, 1);
  const [n] = json.notRead;
  for (const cmd of ['check', 'status']) {
    assert.ok(cli([cmd, '--root', dir], { env: locale('C') }).stdout.includes(n.reason), cmd);
    const ja = cli([cmd, '--root', dir], { env: locale('ja_JP.UTF-8') }).stdout;
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
  const copy = packageCopy(pkg);
  const english = runScript(copy, args, 'C');
  assert.equal(english.code, 1);
  assert.match(english.stdout, /\nOverall: BROKEN\n\/compact [^\n]*\n$/);
  const bundle = (lang: string) => path.join(pkg, 'l10n', `bundle.l10n.${lang}.json`);

  // The copy speaks Japanese with the real bundle beside it: the cases below are English because of the bundle.
  copyFileSync(path.join(REPO, 'l10n', 'bundle.l10n.ja.json'), bundle('ja'));
  assert.ok(runScript(copy, args, 'ja_JP.UTF-8').stdout.includes(`${jaT('Overall')}: BROKEN`));

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
    const r = runScript(copy, args, 'ko_KR.UTF-8');
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, english.stdout, what);
    assert.equal(r.stderr, '', what);
    execFileSync('rm', ['-rf', bundle('ko')]);
  }
  // An entry that is no string: that sentence in English, the others translated.
  writeFileSync(bundle('ko'), JSON.stringify({ Overall: 7, '(none)': '(없음)' }));
  assert.ok(runScript(copy, args, 'ko_KR.UTF-8').stdout.includes('\nOverall: BROKEN\n/compact '));
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
  assert.match(ja.stdout, /\nOverall: BROKEN\n\/compact [^\n]*\n$/);
});

test('the hook script in a repository says first, in Japanese or Korean, that what follows is English, and where it is not', () => {
  const dir = broken();
  const script = path.join(dir, '.claude', 'hooks', 'session-ledger.cjs');
  mkdirSync(path.dirname(script), { recursive: true });
  copyFileSync(HOOK_SCRIPT, script);
  const ja = JSON.parse(readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
  const ko = JSON.parse(readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.ko.json'), 'utf8')) as Record<string, string>;
  const note = Object.keys(ja).find((k) => k.startsWith('This is in English: the hook script'));
  assert.ok(note && ja[note] && ko[note]);
  for (const args of [
    ['check', '--root', dir],
    ['status', '--root', dir],
    ['checkpoint', '--session', '5b0c2f8e-7a41-4d2c-9b3e-1f6a8d2c4e71', '--root', dir],
    ['context', '--root', dir],
    ['--help'],
    ['check', '--help'],
  ]) {
    const cmd = args;
    const agents = quiet();
    const en = runScript(script, args, 'C', agents);
    const inJa = runScript(script, args, 'ja_JP.UTF-8', agents);
    const inKo = runScript(script, args, 'ko_KR.UTF-8', agents);
    // Once, first, on stderr; what the command prints is the English one's, byte for byte.
    assert.ok(inJa.stderr.startsWith(`${ja[note]}\n`), `${cmd[0]}: ${inJa.stderr}`);
    assert.ok(inKo.stderr.startsWith(`${ko[note]}\n`), `${cmd[0]}: ${inKo.stderr}`);
    assert.equal(inJa.stderr.split(ja[note]).length, 2, cmd[0]);
    assert.equal(inJa.stderr.slice(ja[note].length + 1), en.stderr, cmd[0]);
    assert.equal(inJa.stdout, en.stdout, cmd[0]);
    assert.equal(inJa.code, en.code, cmd[0]);
    assert.ok(!en.stderr.includes(note), cmd[0]);
  }
  // --json is English by design and says nothing of it; the package's own copy prints Japanese and needs no note.
  assert.ok(!runScript(script, ['status', '--json', '--root', dir], 'ja_JP.UTF-8').stderr.includes(ja[note]));
  assert.ok(!runScript(HOOK_SCRIPT, ['status', '--root', dir], 'ja_JP.UTF-8').stderr.includes(ja[note]));
});

/** What a usage error's line says around its reason (the usage and the help command are the English line's). */
function usageParts(english: string): { command: string; usage: string; more: string } {
  const m = /^session-ledger (\S+): .* \(usage: (.*); more: (.*)\)\n$/.exec(english);
  assert.ok(m, english);
  return { command: m[1], usage: m[2], more: m[3] };
}

test('usage errors in ja and ko: an unknown command, an unknown option, a root not found, each with the usage and the help command as in English; in C, English', () => {
  // The unknown command through a real process in every locale (the process reads its environment), the rest in
  // the CLI worker with the locale as its environment.
  const en = cliProcess(['frob'], { env: locale('C') });
  assert.equal(en.code, 2);
  const listed = /The commands: (.*)\. Run `session-ledger --help`/.exec(en.stderr)?.[1];
  assert.ok(listed, en.stderr);
  const missing = path.join(workspace(), 'gone');
  const cases: Array<{ args: string[]; why: (tr: typeof jaT) => string }> = [
    { args: ['check', '--frob'], why: (tr) => tr("unknown option '{0}'", '--frob') },
    { args: ['status', 'extra'], why: (tr) => tr("unexpected argument '{0}'", 'extra') },
    { args: ['check', '--root'], why: (tr) => tr("option '{0}' needs a value", '--root') },
    { args: ['check', '--json=yes'], why: (tr) => tr("option '{0}' takes no value", '--json') },
    { args: ['check', '--root', missing], why: (tr) => tr('root not found: {0}', missing) },
    {
      args: ['checkpoint', '--session', 'a b'],
      why: (tr) => tr("--session: '{0}' is not a session id (letters, digits, '.', '_', '-')", 'a b'),
    },
    { args: ['context', '--agent', 'vim'], why: (tr) => tr("--agent must be claude or codex, not '{0}'", 'vim') },
    { args: ['statusline', '--frob'], why: (tr) => tr("unknown option '{0}'", '--frob') },
    {
      args: ['hooks', 'install', '--codex', '--remind'],
      why: (tr) =>
        tr(
          "{0} is for Claude Code's settings; --codex wires Codex's .codex/hooks.json (the guard and the resume hook only)",
          '--remind',
        ),
    },
  ];
  const english = cases.map((c) => cli(c.args, { env: locale('C'), input: '' }));
  cases.forEach((c, i) => {
    assert.equal(english[i].code, 2, english[i].stderr);
    assert.ok(
      english[i].stderr.includes(`: ${c.why((m, ...a) => format(m, a.map(String)))} (usage: `),
      english[i].stderr,
    );
  });
  for (const [lang, tr, script] of LOCALE_LANGS) {
    const r = cliProcess(['frob'], { env: locale(lang) });
    assert.deepEqual(cli(['frob'], { env: locale(lang) }), r);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `${tr("session-ledger: unknown command '{0}'. The commands: {1}. Run `session-ledger --help` for what each does.", 'frob', listed)}\n`,
    );
    assert.match(r.stderr, script);
    cases.forEach((c, i) => {
      const { command, usage, more } = usageParts(english[i].stderr);
      const said = cli(c.args, { env: locale(lang), input: '' });
      assert.equal(said.code, 2, said.stderr);
      assert.equal(
        said.stderr,
        `${tr('session-ledger {0}: {1} (usage: {2}; more: {3})', command, c.why(tr), usage, more)}\n`,
        `${lang} ${c.args.join(' ')}`,
      );
      assert.match(said.stderr.replace(usage, ''), script, `${lang} ${c.args.join(' ')}: ${said.stderr}`);
    });
  }
});

/** Each line of `said` either one of the English lines a user copies (a command line), or another line in the language. */
function sameCommandLines(said: string, english: string, script: RegExp, what: string): void {
  const lines = said.trimEnd().split('\n');
  const en = english.trimEnd().split('\n');
  assert.equal(lines.length, en.length, `${what}:\n${said}`);
  lines.forEach((l, i) => {
    if (/^\s+(session-ledger|node) \\$|^\s+\S.* \\$|^\s+--/.test(en[i]) || /^\s+(checkpoint|--)/.test(en[i]))
      assert.equal(l, en[i], `${what}, line ${i + 1}`);
    else assert.match(l, script, `${what}, line ${i + 1} is English: ${l}`);
  });
}

test('checkpoint refusals in ja and ko: the heading, what was looked for, the counts and the next step in the language, each command line as in English', () => {
  const empty = workspace();
  const dir = broken();
  const en = cli(['checkpoint', '--root', empty], { env: { ...quiet(), ...locale('C') } });
  assert.equal(en.code, 1);
  assert.match(
    en.stderr,
    /^Checkpoint not written:\nNo state files detected \(looked for (.*)\): there is nothing to vouch for\.\n/,
  );
  const looked = /\(looked for (.*)\): there/.exec(en.stderr)?.[1] as string;
  const enBroken = cli(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale('C') } });
  const json = JSON.parse(
    cli(['checkpoint', '--root', dir, '--json'], { env: { ...quiet(), ...locale('C') } }).stdout,
  ) as { refusals: Array<{ code: string; checks: JsonCheck[] }> };
  const blocking = json.refusals.find((r) => r.code === 'blocking-checks')?.checks.length ?? 0;
  const manual = json.refusals.find((r) => r.code === 'manual-unconfirmed')?.checks.length ?? 0;
  assert.ok(blocking > 1 && manual > 1, JSON.stringify(json.refusals));
  for (const [lang, tr, script] of LOCALE_LANGS) {
    const r = cli(['checkpoint', '--root', empty], { env: { ...quiet(), ...locale(lang) } });
    assert.equal(r.code, 1);
    const lines = r.stderr.split('\n');
    assert.equal(lines[0], tr('Checkpoint not written:'));
    assert.equal(lines[1], tr('No state files detected (looked for {0}): there is nothing to vouch for.', looked));
    assert.equal(lines[2], tr('Start one with `{0} init S0` … `S4` (`{0} init` lists them).', 'session-ledger'));
    assert.equal(lines[3], tr('Nothing worth preserving? Run:'));
    sameCommandLines(r.stderr, en.stderr, script, `${lang} nothing detected`);

    const b = cli(['checkpoint', '--root', dir], { env: { ...quiet(), ...locale(lang) } });
    assert.equal(b.code, 1);
    assert.ok(
      b.stderr.includes(`\n\n${tr('Checkpoint not written:')}\n${tr('{0} blocking checks failed:', blocking)}\n`),
      b.stderr,
    );
    assert.ok(
      b.stderr.includes(`\n${tr('{0} manual items not confirmed (every one must be YES):', manual)}\n`),
      b.stderr,
    );
    assert.ok(b.stderr.includes(`\n${tr('When they are true, confirm them with:')}\n`), b.stderr);
    // The command that confirms them, as the English refusal prints it.
    const enCommand = enBroken.stderr.split('\n').filter((l) => /^\s{3,}/.test(l) && / \\$|^\s+--/.test(l));
    for (const l of enCommand) assert.ok(b.stderr.split('\n').includes(l), `${lang}: ${l}`);

    const confirm = cli(['checkpoint', '--root', dir, '--confirm', 'nope'], {
      env: { ...quiet(), ...locale(lang) },
    });
    assert.equal(confirm.code, 2);
    assert.ok(
      confirm.stderr.includes(
        tr('--confirm: unknown item {0} (known: {1}, also as S1:<id>).', 'nope', 'feedback-stored, last-request'),
      ),
      confirm.stderr,
    );
  }
});

test('hooks install in ja and ko: what it did, the command that undoes it, and a settings file it refuses, in the extension words for the same refusal', () => {
  const dir = broken();
  const en = cli(['hooks', 'install', '--root', dir], { env: locale('C') });
  assert.equal(en.code, 0, en.stderr);
  assert.ok(en.stdout.trimEnd().endsWith('\nRemove them with: session-ledger hooks uninstall'), en.stdout);
  for (const [lang, tr, script] of LOCALE_LANGS) {
    const fresh = broken();
    const r = cli(['hooks', 'install', '--root', fresh], { env: locale(lang) });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[lines.length - 1], tr('Remove them with: {0}', 'session-ledger hooks uninstall'));
    assert.equal(lines.length, en.stdout.trimEnd().split('\n').length, r.stdout);
    for (const l of lines) assert.match(l, script, `${lang}: ${l}`);

    const refused = broken();
    write(refused, '.claude/settings.json', '[]\n');
    const enRefused = cli(['hooks', 'install', '--root', refused], { env: locale('C') });
    assert.equal(enRefused.code, 1);
    assert.equal(
      enRefused.stderr,
      'session-ledger hooks install: .claude/settings.json is not a JSON object (fix it by hand first; nothing was changed)\n',
    );
    const said = cli(['hooks', 'install', '--root', refused], { env: locale(lang) });
    assert.equal(said.code, 1);
    assert.equal(
      said.stderr,
      `session-ledger hooks install: ${tr('{0} is not a JSON object: fix it by hand first; nothing was changed.', '.claude/settings.json')}\n`,
    );
  }
});

test('context in ja and ko: the figure line (its source too) and why none was found in the language; the figures, the agent, the model and the session as they are; --json the same bytes', () => {
  const root = workspace();
  const SID = '258c7280-ae70-4798-800f-63464d01a85d';
  const claude = workspace({}, 'sl-claude-');
  const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: workspace({}, 'sl-codex-'), HOME: workspace({}, 'sl-home-') };
  const none = cli(['context', '--root', root], { env: { ...env, ...locale('C') } });
  assert.equal(none.code, 3);
  const [, where] = /^Looked in (.*)\. Name a transcript/m.exec(none.stderr) ?? [];
  assert.ok(where, none.stderr);
  const [a, b] = where.split(' and ');
  write(
    path.join(claude, 'projects', encodeClaudeProjectDir(root)),
    `${SID}.jsonl`,
    ofFolder(lines(asst({ input: 10, create: 90, read: 139900, model: 'claude-opus-4-6', session: SID })), root),
  );
  const en = cli(['context', '--root', root], { env: { ...env, ...locale('C') } });
  assert.equal(en.code, 0, en.stderr);
  assert.equal(
    en.stdout,
    `Claude Code 70% · 140k of 200k tokens · checkpoint proposed (default: 60%/80%, no system here) · claude-opus-4-6 · session ${SID} · from transcript\n`,
  );
  const enJson = cli(['context', '--root', root, '--json'], { env: { ...env, ...locale('C') } }).stdout;
  for (const [lang, tr, script] of LOCALE_LANGS) {
    const empty = workspace();
    const n = cli(['context', '--root', empty], { env: { ...env, ...locale(lang) } });
    assert.equal(n.code, 3);
    const w = [a.replace(encodeClaudeProjectDir(root), encodeClaudeProjectDir(empty)), b];
    assert.equal(
      n.stderr,
      `session-ledger context: ${tr('no Claude Code or Codex CLI session found for {0}', empty)}\n${tr(
        'Looked in {0} and {1}. Name a transcript with --transcript FILE, or set CLAUDE_CONFIG_DIR (Claude Code) or CODEX_HOME (Codex CLI) when the agent keeps its sessions elsewhere.',
        ...w,
      )}\n`,
    );
    // Each sentence in the language's own script (an entry missing from the bundle would say it in English).
    for (const l of n.stderr.trimEnd().split('\n')) assert.match(l, script, `${lang}: ${l}`);
    const r = cli(['context', '--root', root], { env: { ...env, ...locale(lang) } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, script, r.stdout);
    assert.equal(
      r.stdout,
      `${[
        'Claude Code 70%',
        tr('{0} of {1} tokens', '140k', '200k'),
        `${tr('checkpoint proposed')} (${tr('default: {0}, no system here', '60%/80%')})`,
        'claude-opus-4-6',
        tr('session {0}', SID),
        tr('from {0}', tr('transcript')),
      ].join(' · ')}\n`,
    );
    assert.equal(cli(['context', '--root', root, '--json'], { env: { ...env, ...locale(lang) } }).stdout, enJson);
  }
});

test("every sentence of the command-line tool's own (src/cli) has a Japanese and a Korean entry in the extension's bundles", async () => {
  const { cliTemplates } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    cliTemplates: () => string[];
  };
  const templates = cliTemplates();
  assert.ok(templates.length > 20, `${templates.length} templates`);
  for (const [lang, tr] of LOCALE_LANGS)
    assert.deepEqual(
      templates.filter((m) => tr(m) === m),
      [],
      lang,
    );
});

test('the hook script in a repository says its refusals and usage errors in English whatever the locale, after the line that says so: it reads no bundle', () => {
  const dir = workspace();
  const script = path.join(dir, '.claude', 'hooks', 'session-ledger.cjs');
  mkdirSync(path.dirname(script), { recursive: true });
  copyFileSync(HOOK_SCRIPT, script);
  write(dir, '.claude/l10n/bundle.l10n.ja.json', JSON.stringify({ 'Checkpoint not written:': 'ALL FINE' }));
  const said = jaT(
    'This is in English: the hook script a project holds carries no translations of these messages. session-ledger installed as the command-line tool, and the Session Ledger extension in VS Code, say them in your language.',
  );
  for (const args of [[], ['frob'], ['check', '--frob'], ['checkpoint', '--root', dir]]) {
    const agents = quiet();
    const en = runScript(script, args, 'C', agents);
    const ja = runScript(script, args, 'ja_JP.UTF-8', agents);
    assert.notEqual(en.code, 0);
    assert.equal(ja.stderr, `${said}\n${en.stderr}`, args.join(' '));
  }
});
