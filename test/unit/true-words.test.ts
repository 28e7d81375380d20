/**
 * Every command of the CLI, run as a user runs it on three shapes of folder — empty, one with each
 * system (S0–S4, with an agent session), and one with a system but no agent session — and its output
 * reviewed for shape: an exit code its --help lists, no stack trace or leaked placeholder, the verdict
 * where the other commands put it, one list of looked-for files, and no message that claims a write
 * the folder does not show (or a write the message does not own up to).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, lstatSync } from 'node:fs';
import * as path from 'node:path';
import { MANUALS } from '../../src/cli/help';
import { lookedFor } from '../../src/core/report/report';
import { FACTS } from '../../src/core/systems/facts';
import type { SystemId } from '../../src/core/model/model';
import { cli, fixtureCopy, FIXTURES, gitInit, workspace, type CliResult } from './helpers';

const SID = '9b0d3c52-5a8e-4f0e-9a41-2c7d6f1e8a10';
const TRANSCRIPT = path.join(FIXTURES, 'transcripts', 'claude-one-compaction.jsonl');

/** Every file under `dir` (but .git) with its hash: what a command wrote shows as a difference. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      if (!rel && name === '.git') continue;
      const abs = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs, r);
      else out.set(r, st.isFile() ? createHash('sha256').update(readFileSync(abs)).digest('hex') : 'link');
    }
  };
  walk(dir, '');
  return out;
}

function changed(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}

interface Shape {
  name: string;
  root: string;
  /** The environment of the agent's homes. */
  env: NodeJS.ProcessEnv;
  systems: string[];
}

function homes(root: string, withSession: boolean): NodeJS.ProcessEnv {
  const claude = workspace({}, 'sl-claude-');
  const codex = workspace({}, 'sl-codex-');
  if (withSession) {
    const project = path.join(claude, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(project, { recursive: true });
    copyFileSync(TRANSCRIPT, path.join(project, `${SID}.jsonl`));
  }
  return {
    CLAUDE_CONFIG_DIR: claude,
    CODEX_HOME: codex,
    CLAUDE_PROJECT_DIR: '',
    SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '',
  };
}

function shapes(): Shape[] {
  const out: Shape[] = [];
  const empty = workspace({}, 'sl-empty-');
  gitInit(empty);
  out.push({ name: 'empty folder', root: empty, env: homes(empty, false), systems: [] });
  for (const id of ['s0', 's1', 's2', 's3', 's4']) {
    const root = fixtureCopy(`${id}/good`);
    gitInit(root);
    out.push({ name: `${id.toUpperCase()} folder`, root, env: homes(root, true), systems: [id.toUpperCase()] });
  }
  const noSession = fixtureCopy('s3/good');
  gitInit(noSession);
  out.push({ name: 'S3 folder, no agent session', root: noSession, env: homes(noSession, false), systems: ['S3'] });
  return out;
}

interface Run {
  args: string[];
  input?: string;
  /** The command may write (and then must say what it wrote). */
  writes?: RegExp;
}

/** The commands, as a user runs them on a folder: every read command, every preview, and the writers. */
function runs(s: Shape): Run[] {
  const pre = JSON.stringify({ session_id: SID, cwd: s.root, hook_event_name: 'PreCompact', trigger: 'manual' });
  const start = JSON.stringify({ session_id: SID, cwd: s.root, hook_event_name: 'SessionStart', source: 'clear' });
  const line = JSON.stringify({
    session_id: SID,
    cwd: s.root,
    workspace: { current_dir: s.root },
    model: { display_name: 'Opus' },
  });
  return [
    { args: ['status'] },
    { args: ['status', '--json'] },
    { args: ['check'] },
    { args: ['check', '--json'] },
    { args: ['context'] },
    { args: ['context', '--json'] },
    { args: ['init'] },
    { args: ['init', 'S3', '--dry-run'] },
    { args: ['attest', '--dry-run'] },
    { args: ['compact-state'] },
    { args: ['rotate-log'] },
    { args: ['hooks', 'install', '--dry-run'] },
    { args: ['hooks', 'uninstall', '--dry-run'] },
    { args: ['hook', 'pre-compact'], input: pre, writes: /^\.claude\/(session-ledger|log)\// },
    { args: ['hook', 'session-start'], input: start, writes: /^\.claude\/(session-ledger|log)\// },
    { args: ['statusline'], input: line, writes: /^\.claude\/session-ledger\// },
    { args: ['checkpoint', '--session', SID], writes: /^\.claude\/\.checkpoint-ready\./ },
  ];
}

const LEAKS = /\bundefined\b|\bNaN\b|\[object Object\]|\n\s+at .+:\d+:\d+\)?$|\{\d\}|<missing/m;
const CLAIMS =
  /\b(Wrote|Written|written to|Installed|installed the|Removed|Marker written|Checkpoint saved|checkpoint complete)\b/;

function review(s: Shape, r: Run, res: CliResult, wrote: string[]): void {
  const what = `${s.name}: session-ledger ${r.args.join(' ')}\n--- stdout\n${res.stdout}\n--- stderr\n${res.stderr}`;
  const name = r.args[0];
  const manual = r.args[1] && MANUALS[name].sub?.[r.args[1]] ? MANUALS[name].sub![r.args[1]] : MANUALS[name];
  // an exit code its --help lists
  assert.ok(
    manual.exit.some(([code]) => code === res.code),
    `exit ${res.code} is not one --help lists\n${what}`,
  );
  // something is said (a hook in a folder without a system has nothing to add to the agent's context), and nothing leaks
  if (!(name === 'hook' && !s.systems.length))
    assert.ok((res.stdout + res.stderr).trim().length > 0, `says nothing\n${what}`);
  if (r.args.includes('--json') && res.code !== 3) {
    // JSON carries each message's template (messageId, hintId) beside its text: the texts must be filled
    const text = JSON.stringify(JSON.parse(res.stdout), (k, v) =>
      k === 'messageId' || k === 'hintId' ? undefined : v,
    );
    assert.doesNotMatch(text + res.stderr, LEAKS, what);
  } else assert.doesNotMatch(res.stdout + res.stderr, LEAKS, what);
  // no write without saying so, and no claim of a write that did not happen
  if (!r.writes) assert.deepEqual(wrote, [], `wrote files it does not own up to\n${what}`);
  else for (const f of wrote) assert.match(f, r.writes, `wrote ${f}\n${what}`);
  if (CLAIMS.test(res.stdout + res.stderr) && !/^(hook|statusline)$/.test(name))
    assert.ok(wrote.length > 0, `claims a write, the folder shows none\n${what}`);
  if (r.args.includes('--dry-run') || ['compact-state', 'rotate-log'].includes(name))
    assert.doesNotMatch(res.stdout + res.stderr, /^(Wrote|Written)\b/m, what);
}

test('every command on an empty folder, a folder of each system and a folder without an agent session: exit codes its --help lists, nothing leaked, no claim the folder does not show', () => {
  for (const s of shapes()) {
    for (const r of runs(s)) {
      const before = snapshot(s.root);
      const res = cli([...r.args, '--root', s.root], { input: r.input, env: s.env, cwd: s.root });
      review(s, r, res, changed(before, snapshot(s.root)));
    }
  }
});

test('the verdict is where the user looks for it: "Overall: LABEL" ends status and check, followed only by why it is worse than the systems\' (when it is) and what the guard would do with /compact', () => {
  for (const s of shapes().filter((x) => x.systems.length)) {
    for (const cmd of ['status', 'check']) {
      const res = cli([cmd, '--root', s.root], { env: s.env });
      const lines = res.stdout.trimEnd().split('\n');
      // While several sessions run, the guard's line is followed by each one's verdict under its id.
      while (/^ {2}[0-9a-f-]{36} {2}\/compact /.test(lines[lines.length - 1])) lines.pop();
      const [verdict, why, guard] = lines.slice(-3);
      const hasWhy = why.startsWith("This session's ");
      assert.match(hasWhy ? verdict : why, /^Overall: (WORKING|PARTIAL|BROKEN)$/, `${s.name}: ${cmd}\n${res.stdout}`);
      assert.match(guard, /^\/compact /, `${s.name}: ${cmd}\n${res.stdout}`);
      assert.equal(res.stdout.split('Overall:').length - 1, 1, `${s.name}: ${cmd} says Overall once`);
    }
  }
});

test('an empty folder: status, check and checkpoint name the same looked-for files and say how to start one', () => {
  const [empty] = shapes();
  const list = `looked for ${lookedFor()}`;
  for (const args of [['status'], ['check'], ['checkpoint', '--session', SID]]) {
    const res = cli([...args, '--root', empty.root], { env: empty.env });
    const text = res.stdout + res.stderr;
    assert.ok(text.includes(list), `${args[0]}: ${text}`);
    assert.ok(text.includes('session-ledger init'), `${args[0]}: ${text}`);
    // one list: no command names a glob or a companion instead
    assert.doesNotMatch(
      text,
      /\*\.md|MEMORY\.md|PROGRESS\.md|CONTINUITY\.md|context-manifest\.yaml/,
      `${args[0]}: ${text}`,
    );
  }
});

test('a folder without an agent session: context says where it looked and what to do (--transcript, CLAUDE_CONFIG_DIR, CODEX_HOME)', () => {
  const s = shapes().find((x) => x.name.includes('no agent session'))!;
  const res = cli(['context', '--root', s.root], { env: s.env });
  assert.equal(res.code, 3);
  for (const word of ['--transcript', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', String(s.env.CLAUDE_CONFIG_DIR)])
    assert.ok(res.stderr.includes(word), `${word}: ${res.stderr}`);
});

test('the checkpoint of each system ends with its own fresh-context step (S3 says /clear once), and says so only when the marker was written', () => {
  for (const s of shapes().filter((x) => x.systems.length && !x.name.includes('no agent session'))) {
    const before = snapshot(s.root);
    const res = cli(['checkpoint', '--session', SID, '--confirm', 'feedback-stored,last-request', '--root', s.root], {
      env: s.env,
    });
    const wrote = changed(before, snapshot(s.root));
    const text = res.stdout + res.stderr;
    assert.equal(res.code, 0, `${s.name}\n${text}`);
    assert.deepEqual(wrote, [`.claude/.checkpoint-ready.${SID}`], `${s.name}\n${text}`);
    const closing = text.slice(text.indexOf('Marker written:'));
    const id = s.systems[0] as SystemId;
    assert.ok(
      closing.includes(FACTS[id].freshContext.command),
      `${s.name}: the closing step names ${FACTS[id].freshContext.command}\n${closing}`,
    );
    if (id === 'S3')
      assert.equal(closing.split('/clear').length - 1, 1, `${s.name}: /clear more than once\n${closing}`);
  }
  // refused: nothing written, no go-signal
  const empty = shapes()[0];
  const before = snapshot(empty.root);
  const res = cli(['checkpoint', '--session', SID, '--root', empty.root], { env: empty.env });
  assert.equal(res.code, 1);
  assert.deepEqual(changed(before, snapshot(empty.root)), []);
  assert.doesNotMatch(res.stdout + res.stderr, /Safe to run|checkpoint complete|Checkpoint saved|Marker written/);
});
