import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  applyHooksPlan,
  CORE_REL,
  planHooksInstall,
  planHooksUninstall,
  SCRIPT_REL,
} from '../../src/core/hooks/install';
import {
  HOOK_CORE_MARKER,
  HOOK_HOOKS_MARKER,
  HOOK_METER_MARKER,
  HOOK_REST_MARKER,
  HOOK_WORDS_MARKER,
  HOOK_YAML_MARKER,
  PART_MARKERS,
} from '../../src/core/hooks/files';
import { HOOK_SCRIPT, partCompiles, REPO, STATUSLINE_SCRIPT, workspace } from './helpers';
import { CONFIRM_ALL, emptyClaudeHome, preCompact, S3_STATE, sessionStart, SID } from './checkpoint-fixtures';

test('the installed hook is one plain JavaScript file a reviewer can read: nothing beside it, no compressed or minified code', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  assert.deepEqual(readdirSync(path.join(dir, '.claude/hooks')), ['session-ledger.cjs']);
  const bytes = readFileSync(path.join(dir, SCRIPT_REL));
  // Under 2 MiB: past it, Node's read of the script costs every hook run about 500 page faults more (516 measured).
  assert.ok(bytes.length < 2 * 1024 * 1024, `${bytes.length} bytes`);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  assert.equal(text.includes('\0'), false, 'no binary');
  const lines = text.split('\n');
  // After the status line's code, each part follows its marker line as plain code in one block comment, the
  // body of a function that is never called, which nothing inside ends early: Node never parses it as code
  // (loadPart compiles it).
  const marks: number[] = PART_MARKERS.map((m) => lines.indexOf(m));
  assert.equal(marks.length, 7);
  assert.ok(
    marks[0] > 0 && marks.every((m, i) => i === 0 || marks[i - 1] < m),
    `the parts in order: ${marks.join(', ')}`,
  );
  assert.deepEqual(lines.slice(-3), ['*/', '}', '']);
  for (const [i, at] of marks.entries()) {
    const end: number = i + 1 < marks.length ? marks[i + 1] : lines.length - 1;
    assert.match(lines[at + 1], /^function sessionLedger(Transcript|Meter|Core|Hooks|Rest|Yaml|Words)\(\) \{$/);
    assert.equal(lines[at + 2], '/*');
    assert.deepEqual(lines.slice(end - 2, end), ['*/', '}']);
    const part = lines.slice(at + 3, end - 2).join('\n');
    assert.equal(part.includes('*/'), false);
    // The words are a table (each English template, then its Japanese and its Korean), the others code.
    if (PART_MARKERS[i] === HOOK_WORDS_MARKER) assert.match(part, /^module\.exports = \{\n"/, 'the words as a table');
    else assert.match(part, /^var __/m, 'code as it is, not behind line comments');
  }
  assert.match(lines.slice(marks[5], marks[6]).join('\n'), /YAMLParseError/, 'the YAML reader is in the file as text');
  // Not minified: lines a reader can follow.
  const lengths = lines.map((l) => l.length).sort((a, b) => a - b);
  assert.ok(
    lengths[Math.floor(lengths.length * 0.5)] < 100,
    `median line length ${lengths[Math.floor(lengths.length * 0.5)]}`,
  );
  assert.ok(
    lengths[Math.floor(lengths.length * 0.99)] < 300,
    `99th percentile line length ${lengths[Math.floor(lengths.length * 0.99)]}`,
  );
});

test('the extension takes the core from the hook script instead of bundling a second copy', () => {
  const ext = path.join(REPO, 'dist', 'extension.js');
  if (!existsSync(ext)) return;
  const text = readFileSync(ext, 'utf8');
  assert.match(text, /require\("\.\/session-ledger\.cjs"\)/);
  // A development build names each module it holds in a `// path` line (`// table:path` when taken from the hook script).
  assert.doesNotMatch(text, /^\/\/ (node_modules\/(yaml|markdown-it)|src\/core\/(formats|checks))\//m);
});

function env(dir: string, tmp: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: tmp,
    CLAUDE_CONFIG_DIR: emptyClaudeHome(),
    CLAUDE_PROJECT_DIR: dir,
    NODE_PATH: '',
  };
}

test('nothing is read from the temporary folder and run: code planted there never runs, and nothing is written there', () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE, '.claude/keep': '' });
  const tmp = workspace({}, 'sl-tmp-');
  // A second user prepared the cache folder the hook script of earlier versions read its core from,
  // under every name it could use (the core's digest, when a build still has one).
  const cacheDir = path.join(tmp, `session-ledger-${process.getuid?.() ?? 'user'}`);
  mkdirSync(cacheDir, { mode: 0o700 });
  const trace = path.join(tmp, 'PLANTED-CODE-RAN');
  const planted = `require('fs').writeFileSync(${JSON.stringify(trace)}, 'x'); module.exports = { main: async () => 0, __m: {} };`;
  const br = path.join(path.dirname(HOOK_SCRIPT), 'session-ledger-core.br');
  const digest = existsSync(br)
    ? createHash('sha256').update(readFileSync(br)).digest('hex').slice(0, 20)
    : '0'.repeat(20);
  writeFileSync(path.join(cacheDir, `core-${digest}.js`), planted);
  const before = readdirSync(cacheDir).sort();
  const node = (args: string[], input = '') =>
    spawnSync(process.execPath, [HOOK_SCRIPT, ...args], { cwd: dir, env: env(dir, tmp), input, encoding: 'utf8' });
  const hook = node(['hook', 'pre-compact'], preCompact(dir));
  assert.equal(hook.status, 2, `no marker: the guard blocks (${hook.stderr})`);
  const st = node(['status', '--json', '--root', dir]);
  assert.equal(st.status, 0, st.stderr);
  assert.match(st.stdout, /"S3"/);
  assert.equal(existsSync(trace), false, 'the planted code never ran');
  assert.deepEqual(readdirSync(cacheDir).sort(), before, 'nothing was written into the cache folder');
  assert.deepEqual(readdirSync(tmp).sort(), [path.basename(cacheDir)].sort(), 'nothing else in the temporary folder');
});

test('a hook script without its core lets the hooks allow and says why; install puts the whole file back; both remove what older versions put beside it', async () => {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const tmp = workspace({}, 'sl-tmp-');
  const plan = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  await applyHooksPlan(plan);
  const node = (args: string[], input = '') =>
    spawnSync(process.execPath, [SCRIPT_REL, ...args], { cwd: dir, env: env(dir, tmp), input, encoding: 'utf8' });
  assert.equal(node(['hook', 'pre-compact'], preCompact(dir)).status, 2, 'no marker: blocks');

  // A copy cut short before its core (a half-written checkout): the hook allows, the other commands say why.
  const full = readFileSync(path.join(dir, SCRIPT_REL), 'utf8');
  writeFileSync(path.join(dir, SCRIPT_REL), full.slice(0, full.indexOf(`\n${HOOK_CORE_MARKER}\n`) + 1));
  const hook = node(['hook', 'pre-compact'], preCompact(dir));
  assert.equal(hook.status, 0, hook.stderr);
  assert.match(hook.stderr, /holds no core.*hooks install.*Allowing/);
  const st = node(['status']);
  assert.equal(st.status, 2);
  assert.match(st.stderr, /session-ledger\.cjs holds no core/);
  // The status line needs no core.
  assert.equal(node(['context', '--json']).status, 3);

  // An older version's compressed core beside the script goes with the next install.
  writeFileSync(path.join(dir, CORE_REL), 'old core');
  const again = await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT });
  assert.equal(again.script, 'write');
  await applyHooksPlan(again);
  assert.equal(readFileSync(path.join(dir, SCRIPT_REL), 'utf8'), full);
  assert.equal(existsSync(path.join(dir, CORE_REL)), false);
  assert.equal(node(['hook', 'pre-compact'], preCompact(dir)).status, 2);

  writeFileSync(path.join(dir, CORE_REL), 'old core');
  const u = await planHooksUninstall(dir);
  assert.equal(u.script, 'remove');
  await applyHooksPlan(u);
  assert.equal(existsSync(path.join(dir, CORE_REL)), false);
  assert.equal(existsSync(path.join(dir, SCRIPT_REL)), false);
});

test("a part's stack trace names the line of the hook script its code stands on, from the script itself and from the status line's script", () => {
  const dir = workspace({});
  const hook = path.join(dir, 'session-ledger.cjs');
  writeFileSync(hook, readFileSync(HOOK_SCRIPT));
  writeFileSync(path.join(dir, 'session-ledger-statusline.cjs'), readFileSync(STATUSLINE_SCRIPT));
  const lines = readFileSync(hook, 'utf8').split('\n');
  // A bad call into each part, one after the other in one process per script (each part compiles on its
  // first call): the trace's line in the hook script must hold the code that failed.
  const probe = `
    const [script, ...parts] = process.argv.slice(1);
    const h = require(script);
    (async () => {
      for (const part of parts)
        await Promise.resolve()
          .then(() =>
            part === 'transcript' ? h.loadTranscript().measure(null) : part === 'meter' ? h.loadMeter().meterMain(null) : part === 'hooks' ? h.loadHooks().hooksMain(null) : h.loadCore().main(null),
          )
          .then(() => console.log(part + ' did not fail'), (e) => console.log(/session-ledger(?:-statusline)?\\.cjs:(\\d+):\\d+/.exec(e.stack)?.[1] ?? e.stack));
    })();`;
  const parts = ['transcript', 'meter', 'core', 'hooks'];
  for (const script of [hook, path.join(dir, 'session-ledger-statusline.cjs')]) {
    const r = spawnSync(process.execPath, ['-e', probe, script, ...parts], { encoding: 'utf8' });
    const said = r.stdout.trim().split('\n');
    assert.equal(said.length, parts.length, `${path.basename(script)}: ${r.stdout}${r.stderr}`);
    parts.forEach((part, i) => {
      const line = Number(said[i]);
      assert.ok(line > 0, `${part} from ${path.basename(script)}: ${said[i]}${r.stderr}`);
      // The status line's script is the hook script's first lines: the same line numbers.
      const failed = part === 'transcript' ? /= path\d*\.resolve\(root\);/ : /= argv;/;
      assert.match(lines[line - 1], failed, `${part} from ${path.basename(script)}: line ${line}: ${lines[line - 1]}`);
    });
  }
});

/** An S3 project with the hook script installed, and a runner of it there (one Claude Code home for every run). */
async function installedS3() {
  const dir = workspace({ 'docs/state/STATE.md': S3_STATE });
  const tmp = workspace({}, 'sl-tmp-');
  await applyHooksPlan(await planHooksInstall(dir, { cliBundle: HOOK_SCRIPT }));
  const e = env(dir, tmp);
  const node = (args: string[], input = '') =>
    spawnSync(process.execPath, [SCRIPT_REL, ...args], { cwd: dir, env: e, input, encoding: 'utf8' });
  return { dir, node };
}

test('a hook script checked out with CRLF line ends (git autocrlf on Windows) runs every part as the LF copy does', async () => {
  const { dir, node } = await installedS3();
  const lf = {
    guard: node(['hook', 'pre-compact'], preCompact(dir)),
    context: node(['context', '--json']),
    status: node(['status', '--json']),
  };
  const file = path.join(dir, SCRIPT_REL);
  writeFileSync(file, readFileSync(file, 'utf8').split('\n').join('\r\n'));
  // The guard (the core), context (the meter) and status give what the LF copy gave.
  const crlf = {
    guard: node(['hook', 'pre-compact'], preCompact(dir)),
    context: node(['context', '--json']),
    status: node(['status', '--json']),
  };
  assert.equal(lf.guard.status, 2, lf.guard.stderr);
  for (const k of ['guard', 'context', 'status'] as const) {
    assert.doesNotMatch(crlf[k].stderr, /holds no|internal error/, `${k}: ${crlf[k].stderr}`);
    assert.equal(crlf[k].status, lf[k].status, `${k}: ${crlf[k].stderr}`);
    assert.equal(crlf[k].stderr, lf[k].stderr, k);
  }
  assert.deepEqual(JSON.parse(crlf.status.stdout), JSON.parse(lf.status.stdout));
});

test('the hooks and status run without the rest of the CLI: a copy cut short before it guards and reports as the whole file does', async () => {
  const { dir, node } = await installedS3();
  const run = () => ({
    guard: node(['hook', 'pre-compact'], preCompact(dir)),
    status: node(['status', '--json']),
    check: node(['check']),
  });
  const whole = run();
  const file = path.join(dir, SCRIPT_REL);
  const full = readFileSync(file, 'utf8');
  writeFileSync(file, full.slice(0, full.indexOf(`\n${HOOK_REST_MARKER}\n`) + 1));
  const cut = run();
  assert.equal(whole.guard.status, 2, whole.guard.stderr);
  for (const k of ['guard', 'status', 'check'] as const) {
    assert.equal(cut[k].status, whole[k].status, `${k}: ${cut[k].stderr}`);
    assert.equal(cut[k].stdout, whole[k].stdout, k);
    assert.equal(cut[k].stderr, whole[k].stderr, k);
  }
  // A command of the rest says what is missing.
  const restRun = node(['rotate-log']);
  assert.equal(restRun.status, 2);
  assert.match(restRun.stderr, /holds no rest of the CLI/);
});

test('the PreCompact and SessionStart hooks compile only their own part, which guards and resumes as the core does (a copy without it runs them from the core)', async () => {
  const { dir, node } = await installedS3();
  const file = path.join(dir, SCRIPT_REL);
  const full = readFileSync(file, 'utf8');
  // Each part's compile, named by its marker.
  const { require: recorder, compiled } = partCompiles(file, [
    ['meter', HOOK_METER_MARKER],
    ['core', HOOK_CORE_MARKER],
    ['hooks', HOOK_HOOKS_MARKER],
    ['rest', HOOK_REST_MARKER],
    ['YAML', HOOK_YAML_MARKER],
  ]);
  const hook = (args: string[], input: string) =>
    spawnSync(process.execPath, [...recorder, SCRIPT_REL, ...args], {
      cwd: dir,
      env: { ...env(dir, workspace({}, 'sl-tmp-')) },
      input,
      encoding: 'utf8',
    });
  const runs = () => {
    const out: Record<string, { status: number | null; stdout: string; stderr: string; parts: string[] }> = {};
    for (const [name, args, input] of [
      ['guard', ['hook', 'pre-compact'], preCompact(dir)],
      ['codex guard', ['hook', 'pre-compact', '--codex'], preCompact(dir)],
      ['session start', ['hook', 'session-start'], sessionStart(dir, 'compact')],
    ] as const) {
      const r = hook([...args], input);
      out[name] = { status: r.status, stdout: r.stdout, stderr: r.stderr, parts: compiled() };
    }
    return out;
  };
  const cut = full.slice(0, full.indexOf(`\n${HOOK_HOOKS_MARKER}\n`) + 1);
  const both = (label: string) => {
    const whole = runs();
    writeFileSync(file, cut);
    const fromCore = runs();
    writeFileSync(file, full);
    for (const k of Object.keys(whole)) {
      assert.deepEqual(whole[k].parts, ['hooks'], `${label}, ${k}: ${whole[k].stderr}`);
      assert.deepEqual(fromCore[k].parts, ['core'], `${label}, ${k} without the hooks' part`);
      const { parts: _a, ...a } = whole[k];
      const { parts: _b, ...b } = fromCore[k];
      assert.deepEqual(a, b, `${label}, ${k}`);
    }
    return whole;
  };
  const before = both('no checkpoint');
  assert.equal(before.guard.status, 2, before.guard.stderr);
  assert.match(before.guard.stderr, /Compaction stopped/);
  assert.match(before['session start'].stdout, /docs\/state\/STATE\.md/);
  const c = node(['checkpoint', '--session', SID, ...CONFIRM_ALL]);
  assert.equal(c.status, 0, c.stderr);
  const after = both('after a checkpoint');
  assert.equal(after.guard.status, 0, after.guard.stderr);
  assert.equal(after.guard.stderr, '');
});
