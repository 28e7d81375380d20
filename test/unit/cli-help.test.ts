/** The CLI explains itself: --help for every command and subcommand, --version, errors that say what to do next. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MANUALS } from '../../src/cli/help';
import { COMMANDS } from '../../src/cli/main';
import { cli, cliProcess, fixtureCopy, gitInit, REPO, workspace, write } from './helpers';

/** Every command and subcommand, as typed: ['check'], ['hooks', 'install'], … */
const ALL: string[][] = Object.entries(MANUALS).flatMap(([name, m]) => [
  [name],
  ...Object.keys(m.sub ?? {}).map((s) => [name, s]),
]);

/** Every file and folder under `dir`. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

test('every command has a manual, and every subcommand of hook and hooks its own', () => {
  assert.deepEqual(Object.keys(MANUALS).sort(), Object.keys(COMMANDS).sort());
  assert.deepEqual(Object.keys(MANUALS.hook.sub ?? {}), ['pre-compact', 'session-start', 'remind']);
  assert.deepEqual(Object.keys(MANUALS.hooks.sub ?? {}), ['install', 'uninstall']);
});

test('<command> --help and -h: usage, options, exit codes and an example on stdout, exit 0, nothing written', () => {
  const dir = workspace();
  // A hook reads its project from the payload and $CLAUDE_PROJECT_DIR: both point at `dir`.
  const payload = JSON.stringify({ session_id: 'abc', cwd: dir, hook_event_name: 'PreCompact', trigger: 'manual' });
  for (const words of ALL) {
    for (const flag of ['--help', '-h']) {
      const r = cli([...words, flag, '--root', dir], { cwd: dir, input: payload, env: { CLAUDE_PROJECT_DIR: dir } });
      const what = `${words.join(' ')} ${flag}`;
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
      assert.equal(r.stderr, '', what);
      const usage = `Usage: session-ledger ${words.join(' ')}`;
      for (const part of [
        `session-ledger ${words.join(' ')}: `,
        usage,
        '\nOptions:\n',
        '--help',
        '\nExit codes:\n',
        '\nExample:\n  ',
      ]) {
        assert.ok(r.stdout.includes(part), `${what} prints ${JSON.stringify(part)}:\n${r.stdout}`);
      }
      assert.match(
        r.stdout.split('\nExample:\n')[1],
        new RegExp(`session-ledger ${words.join(' ')}`),
        `${what}: the example runs it`,
      );
    }
  }
  assert.deepEqual(tree(dir), [], 'no command wrote anything for --help');
});

test('every option a command parses is in its manual', () => {
  const dir = path.join(REPO, 'src', 'cli', 'commands');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const name = file.replace(/\.ts$/, '');
    // `hook-remind.ts` is `hook remind`, a subcommand with its own manual.
    const m = MANUALS[name] ?? (name.startsWith('hook-') ? MANUALS.hook.sub?.[name.slice(5)] : undefined);
    assert.ok(m, `${name} has a manual`);
    const documented = [m, ...Object.values(m.sub ?? {})].flatMap((x) => x.options.map(([flag]) => flag.split(' ')[0]));
    const src = readFileSync(path.join(dir, file), 'utf8');
    const parsed = [...src.matchAll(/['"]?([a-z][a-z-]*)['"]?:\s*\{\s*type:\s*'(?:string|boolean)'/g)].map(
      (x) => `--${x[1]}`,
    );
    for (const opt of parsed) assert.ok(documented.includes(opt), `${name}: ${opt} is parsed but not in its --help`);
  }
});

test('a command with subcommands lists in its own manual, usage line and options, every option of its subcommands', () => {
  for (const [name, m] of Object.entries(MANUALS)) {
    const own = m.options.map(([flag]) => flag.split(' ')[0]);
    for (const [subName, sub] of Object.entries(m.sub ?? {}))
      for (const [flag] of sub.options) {
        const opt = flag.split(' ')[0];
        assert.ok(own.includes(opt), `${name} --help lists ${opt} (${name} ${subName} takes it)`);
        assert.ok(m.usage.includes(`[${opt}`), `${name}'s usage line names ${opt} (${name} ${subName} takes it)`);
      }
  }
});

test('session-ledger --help lists every command; help <command> is <command> --help', () => {
  const r = cli(['--help']);
  assert.equal(r.code, 0);
  for (const name of Object.keys(COMMANDS)) assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'), name);
  assert.match(r.stdout, /-V, --version/);
  assert.equal(cli(['-h']).stdout, r.stdout);
  assert.equal(cli(['help', 'check']).stdout, cli(['check', '--help']).stdout);
  assert.equal(cli(['help', 'hooks', 'install']).stdout, cli(['hooks', 'install', '--help']).stdout);
  const none = cli([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no command given/);
});

test('--version and -V print the package version (the bundle as a process)', () => {
  const version = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
  for (const flag of ['--version', '-V']) {
    const r = cliProcess([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
});

test('errors say what to do next, in one line: the command list, the usage and where the help is', () => {
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'.*status, check.*session-ledger --help/);
  const bad = cli(['check', '--bogus']);
  assert.equal(bad.code, 2);
  assert.equal(
    bad.stderr,
    "session-ledger check: unknown option '--bogus' (usage: session-ledger check [--root DIR] [--json] [--strict] [--confirm ID,...] [--run-checks]; more: session-ledger check --help)\n",
  );
  const extra = cli(['status', 'here']);
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /unexpected argument 'here'/);
});

test('after --, --help belongs to the relayed status line command', () => {
  const dir = workspace();
  const echo = write(dir, 'echo.js', 'console.log(process.argv.slice(2).join(" "))');
  const r = cli(['statusline', '--', process.execPath, echo, '--help'], { input: '{}', cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '--help\n');
});

test('checkpoint --help: exit 0 also when every detected system is switched off (S0 without session.ledger: true)', () => {
  const r = cli(['checkpoint', '--help']);
  assert.equal(r.code, 0);
  const exit = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
  assert.match(
    exit,
    /0\s+marker written, closing steps printed; or every detected system is switched off by its own configuration \(S0 without session\.ledger: true\): its skip line, no marker/,
  );
  assert.match(exit, /1\s+no marker written: something blocks/);
});

test('checkpoint --help says what it writes when no session is known, and it does write that: the shared marker', () => {
  const help = cli(['checkpoint', '--help']).stdout.replace(/\s+/g, ' ');
  assert.match(help, /the session's own, or the shared marker when no session is known/);
  assert.doesNotMatch(help, /and the session is known does it/);
  const root = fixtureCopy('s3/good');
  gitInit(root);
  const home = workspace({});
  const r = cli(['checkpoint', '--root', root, '--confirm', 'feedback-stored,last-request'], {
    env: { CLAUDE_CONFIG_DIR: home, CODEX_HOME: home },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(path.join(root, '.claude', '.checkpoint-ready')), r.stdout);
});
