/**
 * S0's "after 2–3 compactions, checkpoint then /clear": counting a Claude Code session's
 * `compact_boundary` records, incrementally, in the corpus transcripts (in-repo, and external when present) and in the project's own transcript fixture.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { compactionsAdviceOf, countCompactions, COUNT_BUDGET_BYTES } from '../../src/core/context/compactions';

const S0_ADVICE = compactionsAdviceOf(['S0']);
import { checklistState } from '../../src/extension/pure/checklist-model';
import { statusView } from '../../src/extension/pure/status-text';
import { evaluate } from '../../src/core/report/evaluate';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { CORPUS_SESSIONS, fixtureCopy, gitInit, REPO, workspace, type CorpusSessions } from './helpers';
import { encoded, run, s3Workspace } from './checkpoint-fixtures';

/** The in-repo corpus's session (the advice tests); the count test runs over every corpus's. */
const OWN = CORPUS_SESSIONS[0].claude;
const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

/** The boundary record of a corpus transcript, as another compaction of the same session. */
function boundary(realText: string, o: Record<string, unknown> = {}): string {
  const line = realText.split('\n').find((l) => l.includes('"subtype":"compact_boundary"')) as string;
  return `${JSON.stringify({ ...JSON.parse(line), uuid: `b-${Math.random()}`, timestamp: new Date().toISOString(), ...o })}\n`;
}

/** A transcript with `cwd` rewritten to `root`, in a Claude home for `root`. */
function placeText(root: string, text: string, id: string): { home: string; file: string; text: string } {
  const home = workspace({}, 'sl-claude-');
  const dir = path.join(home, 'projects', encoded(root));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, text);
  return { home, file, text };
}

/** A corpus transcript, its cwd rewritten to `root`. */
function place(root: string, c: CorpusSessions['claude'] = OWN): { home: string; file: string; text: string } {
  return placeText(root, readFileSync(c.file, 'utf8').replaceAll(c.cwd, root), c.id);
}

/** The project's own transcript fixture (one compaction, usage before and after it), its cwd rewritten to `root`. */
function placeOwn(root: string): { home: string; file: string; text: string } {
  const text = readFileSync(
    path.join(REPO, 'test', 'fixtures', 'transcripts', 'claude-one-compaction.jsonl'),
    'utf8',
  ).replaceAll('"/WORKSPACE"', JSON.stringify(root));
  return placeText(root, text, '9b0d3c52-5a8e-4f0e-9a41-2c7d6f1e8a10');
}

for (const { corpus, claude } of CORPUS_SESSIONS)
  test(`${corpus}: a transcript's one compaction; appended ones counted from the new bytes; torn, sidechain, foreign and long lines not`, async () => {
    const ID = claude.id;
    const { file, text } = place(workspace(), claude);
    assert.deepEqual(await countCompactions(file), { count: 1, last: claude.lastCompaction, complete: true });
    appendFileSync(file, boundary(text));
    assert.equal((await countCompactions(file)).count, 2);
    // A torn boundary (the client mid-write) counts once it is complete, not before.
    const b = boundary(text);
    appendFileSync(file, b.slice(0, 40));
    assert.equal((await countCompactions(file)).count, 2);
    appendFileSync(file, b.slice(40));
    assert.equal((await countCompactions(file)).count, 3);
    // A subagent's, another session's, and the words inside a long message are not compactions of this session.
    appendFileSync(file, boundary(text, { isSidechain: true }));
    appendFileSync(file, boundary(text, { sessionId: 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f' }));
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', sessionId: ID, message: { role: 'user', content: `"type":"system","subtype":"compact_boundary" ${'x'.repeat(200_000)}` } })}\n`,
    );
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', sessionId: ID, message: { role: 'user', content: 'why did the "compact_boundary" record appear?' } })}\n`,
    );
    assert.equal((await countCompactions(file)).count, 3);
    // Cut shorter (rewritten): counted again from the start.
    truncateSync(file, Buffer.byteLength(text));
    assert.equal((await countCompactions(file)).count, 1);
    // Replaced by another file (new inode): counted afresh.
    const other = `${file}.new`;
    writeFileSync(other, text + boundary(text) + boundary(text));
    renameSync(other, file);
    assert.equal((await countCompactions(file)).count, 3);
    assert.deepEqual(await countCompactions(`${file}.missing`), { count: 0, last: null, complete: true });
  });

test('with a byte budget each call counts only that much further and says whether it reached the end; the count comes out the same, long lines and all', async () => {
  const sid = '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const dir = workspace();
  const file = path.join(dir, `${sid}.jsonl`);
  const b = (i: number) =>
    `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: sid, timestamp: `2026-01-0${i}T00:00:00Z`, compactMetadata: { trigger: 'auto' } })}\n`;
  const user = (n: number) =>
    `${JSON.stringify({ type: 'user', sessionId: sid, message: { role: 'user', content: 'x'.repeat(n) } })}\n`;
  // A boundary, a 300 KB message (longer than any boundary, longer than the budget), two more boundaries among short lines.
  writeFileSync(file, user(100) + b(1) + user(300_000) + user(50) + b(2) + user(5000) + b(3) + user(10));
  const size = readFileSync(file).length;
  const budget = 130_000;
  const seen: Array<{ count: number; complete: boolean }> = [];
  for (let i = 0; i < 20; i++) {
    const c = await countCompactions(file, budget);
    seen.push({ count: c.count, complete: c.complete });
    if (c.complete) break;
  }
  const last = seen[seen.length - 1];
  assert.deepEqual(last, { count: 3, complete: true }, JSON.stringify(seen));
  assert.ok(
    seen.length >= Math.ceil(size / budget),
    `${seen.length} calls for ${size} bytes with a ${budget}-byte budget`,
  );
  assert.equal(seen[0].complete, false);
  assert.deepEqual(await countCompactions(file), { count: 3, last: '2026-01-03T00:00:00Z', complete: true });
  // Appended later: the next budgeted call reads just that.
  appendFileSync(file, b(4));
  assert.deepEqual(await countCompactions(file, budget), { count: 4, last: '2026-01-04T00:00:00Z', complete: true });
});

test('boundaries are found wherever they stand in the file: among many short lines, first in a chunk, and across the edge of a 1 MB chunk', async () => {
  const sid = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
  const file = path.join(workspace(), `${sid}.jsonl`);
  const b = (i: number) =>
    `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: sid, timestamp: `2026-02-${String(i).padStart(2, '0')}T00:00:00Z`, compactMetadata: { trigger: 'auto' } })}\n`;
  const user = (n: number) =>
    `${JSON.stringify({ type: 'user', sessionId: sid, message: { role: 'user', content: 'y'.repeat(n) } })}\n`;
  const CHUNK = 1024 * 1024;
  let text = b(1);
  let expected = 1;
  // Many short lines with a boundary now and then, up to just before the chunk's edge.
  for (let i = 0; text.length < CHUNK - 3000; i++) {
    text += user(200 + (i % 7) * 31);
    if (i % 500 === 250) text += b(++expected);
  }
  // One boundary across the edge, one right after it, then one as the file's last line.
  text += user(CHUNK - 60 - text.length - user(0).length);
  const across = b(++expected);
  assert.ok(text.length < CHUNK && text.length + across.length > CHUNK, 'the boundary stands across the edge');
  text += across + b(++expected) + user(70_000) + user(10) + b(++expected);
  writeFileSync(file, text);
  assert.deepEqual(await countCompactions(file), {
    count: expected,
    last: `2026-02-${String(expected).padStart(2, '0')}T00:00:00Z`,
    complete: true,
  });
});

test('context on a long transcript gives its figure without counting the whole file: compactions null until a later run finished counting', async () => {
  const root = s3Workspace();
  const own = placeOwn(root);
  // Earlier conversation before the fixture's lines (user records name their cwd, as Claude Code's do): more
  // than one run counts, less than two.
  const line = `${JSON.stringify({ type: 'user', sessionId: '9b0d3c52-5a8e-4f0e-9a41-2c7d6f1e8a10', cwd: root, message: { role: 'user', content: 'y'.repeat(1000) } })}\n`;
  const filler = line.repeat(Math.ceil((1.5 * COUNT_BUDGET_BYTES) / line.length));
  writeFileSync(own.file, filler + own.text);
  const first = JSON.parse(run(['context', '--root', root, '--json'], { env: { CLAUDE_CONFIG_DIR: own.home } }).stdout);
  assert.ok(first.usedTokens > 0, 'the figure is there');
  assert.equal(first.compactions, null, 'not counted yet');
  const second = JSON.parse(
    run(['context', '--root', root, '--json'], { env: { CLAUDE_CONFIG_DIR: own.home } }).stdout,
  );
  assert.equal(second.usedTokens, first.usedTokens);
  assert.equal(second.compactions, 1, 'the next run goes on from where the first stopped');
});

test('context --json carries `compactions`; with S0 on and 2+ of them, its advice: checkpoint, then /clear', async () => {
  const s0 = fixtureCopy('s0/good');
  gitInit(s0);
  const { home, file, text } = place(s0);
  let j = JSON.parse(run(['context', '--root', s0, '--json'], { env: { CLAUDE_CONFIG_DIR: home } }).stdout);
  assert.equal(j.sessionId, OWN.id);
  assert.equal(j.compactions, 1);
  assert.equal(j.advice, null);
  appendFileSync(file, boundary(text));
  const r = run(['context', '--root', s0, '--json'], { env: { CLAUDE_CONFIG_DIR: home } });
  j = JSON.parse(r.stdout);
  assert.equal(j.compactions, 2);
  assert.match(j.advice, /^checkpoint, then \/clear/);
  assert.match(
    run(['context', '--root', s0], { env: { CLAUDE_CONFIG_DIR: home } }).stdout,
    /2 compactions · checkpoint, then \/clear/,
  );
  // Another system: counted, no S0 advice.
  const s3 = s3Workspace();
  const other = place(s3);
  appendFileSync(other.file, boundary(other.text));
  j = JSON.parse(run(['context', '--root', s3, '--json'], { env: { CLAUDE_CONFIG_DIR: other.home } }).stdout);
  assert.equal(j.compactions, 2);
  assert.equal(j.advice, null);
  // S0 present but switched off (session.ledger not true): counted, no advice, in JSON and in the line.
  for (const cfg of ['session:\n  ledger: false\n', 'config_version: 1\n', 'session:\n  ledger: "true"\n']) {
    const off = fixtureCopy('s0/good');
    writeFileSync(path.join(off, '.agents.yml'), cfg);
    const o = place(off);
    appendFileSync(o.file, boundary(o.text));
    j = JSON.parse(run(['context', '--root', off, '--json'], { env: { CLAUDE_CONFIG_DIR: o.home } }).stdout);
    assert.deepEqual([j.compactions, j.advice], [2, null], cfg);
    assert.doesNotMatch(run(['context', '--root', off], { env: { CLAUDE_CONFIG_DIR: o.home } }).stdout, /\/clear/, cfg);
  }
});

test("the meter's light reading of session.ledger agrees with the S0 reader, or is unsure and asks it; it never loads the YAML library", async () => {
  const { ledgerOn } = await import('../../src/core/systems/s0/switch');
  const { agentsYmlLight } = await import('../../src/core/context/agents-yml-light');
  const { NeedsFullReader, useFullConfigReader } = await import('../../src/core/context/full-reader');
  const { s0ConfigOfText } = await import('../../src/core/systems/s0/reader');
  // The plain forms a settings file is written in: read lightly, never handed to the YAML reader.
  const sure = [
    'session:\n  ledger: true\n',
    'session:\n  ledger: True  # on\n  ledger_path: .agents/x.md\n',
    'session:\n    ledger_path: a.md\n    ledger: TRUE\n',
    'session: { ledger: true }\n',
    'session: {ledger: true, ledger_path: x.md}\n',
    '# c\nconfig_version: 1\nsession:\n\n  # note\n  ledger: true\nother: 1\n',
    'session:\n  ledger: "true"\n',
    "session:\n  ledger: 'true'\n",
    'session:\n  ledger: yes\n',
    'session:\n  ledger: 1\n',
    'session:\n  ledger: false\n',
    'session:\n  ledger:\n',
    'session: true\n',
    'session:\n  nested:\n    ledger: true\n',
    '# session:\n#   ledger: true\n',
    'config_version: 1\n',
    'ledger: true\n',
    '',
    '---\nsession:\n  ledger: true\n...\n',
    'name: x\ndescription: >\n  folded: text\n  more: text\nsession:\n  ledger: true\n',
    'tools:\n- a\n- b: 1\n  c: 2\nsession:\n  ledger: true\n',
    'session:\n  ledger:\ttrue\n',
    'session: {ledger: true}  # c\n',
    'config_version: 1.9\ndefault_branch: main\n\nsession:\n  ledger: true\n  ledger_path: .agents/session_ledger.md\nquality_gate:\n  reviewers:\n    - security-review\n',
  ];
  // Anchors, aliases, merge keys and tags: the YAML reader decides (YAML 1.2 has no merge keys; `%YAML 1.1` has them, and `yes`).
  const anchored = [
    'defaults: &d {ledger: true}\nsession: *d\n',
    'defaults: &d\n  ledger: true\nsession: *d\n',
    'defaults: &d\n  ledger: true\nsession:\n  <<: *d\n',
    'defaults: &d {ledger: true}\nsession: {<<: *d}\n',
    'defaults: &d {ledger: false}\nsession:\n  <<: *d\n  ledger: true\n',
    '%YAML 1.1\n---\ndefaults: &d {ledger: true}\nsession:\n  <<: *d\n',
    '%YAML 1.1\n---\nsession:\n  ledger: yes\n',
    'session:\n  ledger: &t true\n',
    't: &t true\nsession:\n  ledger: *t\n',
    'session: &s\n  ledger: true\n',
    '&a session:\n  ledger: true\n',
    'session:\n  &k ledger: true\n',
    'session:\n  <<: {ledger: true}\n',
    'session: {ledger: &a true}\n',
    'session:\n  ledger: !!bool true\n',
    'session:\n  ledger: !!str true\n',
    'session: !!map {ledger: true}\n',
    'session: !!map\n  ledger: true\n',
    'session: {ledger: !!bool true}\n',
    'a: !x\n  b: 1\nsession:\n  ledger: true\n',
  ];
  const configs = [
    ...sure,
    ...anchored,
    'session:\n  ledger: true\n  ledger: false\n',
    // Valid YAML in other shapes.
    'session:\n  ledger: true\n  ledger_path: 5\n',
    'tools:\n  - "x: y"\n  - [a, b]\nsession:\n  ledger: true\n',
    'title: a long\n  plain value\nsession:\n  ledger: true\n',
    'session: { ledger: true,\n  ledger_path: a.md }\n',
    "note: 'it''s # fine'\nsession:\n  ledger: true # yes\n",
    'a: &x 1\nb: *x\nsession:\n  ledger: false\n',
    // Broken: the S0 reader blocks (or warns) and checks S0; the meter must say the same (the light reader hands them over).
    'session:\n  ledger: [true\n',
    'session:\n  ledger: "true\n',
    'session:\n\tledger: true\n',
    'session:\n  ledger: true\nsession:\n  ledger: false\n',
    'session:\n  ledger: true # c\n  "ledger": false\n',
    '- session\n- ledger\n',
    '[session, ledger]\n',
    'just a sentence\n',
    'session: x\n  ledger: true\n',
    'session:\n    ledger: true\n  other: 1\n',
    'session:\n  ledger: true\n ledger_path: x\n',
    'session: {ledger: true\n',
    'session:\n  ledger: true\n  bad\n',
    'session:\n  ledger: true\n  ledger_path: "a.md" x\n',
    'session:\n  ledger: true\n]\n',
    'session:\n  ledger: true\n---\nother: 1\n',
    'session:\n  ledger: *nowhere\n',
    '? session\n: {ledger: true}\n',
    'session:\n  ? ledger\n  : true\n',
    'session: {? ledger : true}\n',
    '{session: {ledger: true}}\n',
    '--- {session: {ledger: true}}\n',
    '  session:\n    ledger: true\n',
    '"session":\n  ledger: true\n',
    "'session': {ledger: true}\n",
    'session:\n  "ledger": true\n',
    'session: {"ledger": true}\n',
    '"sess\\u0069on":\n  ledger: true\n',
    'session:\n  "led\\x67er": true\n',
    'session: {ledger: true, ledger: false}\n',
    'session: {a: {b: 1}, ledger: true}\n',
    'session: {ledger:true}\n',
    'session: {\n  ledger: true\n}\n',
    'session:\n  ledger:\n    true\n',
    'session:\n  ledger: true\n    more\n',
    'session:\n  ledger: true\n...\nother: 1\n',
    '---\n---\nsession:\n  ledger: true\n',
    '[a]: 1\nsession:\n  ledger: true\n',
    'a: - x\nsession:\n  ledger: true\n',
    'a: |\n  &x\n  *y\nsession:\n  ledger: true\n',
    'a: |\n    x\n  y\nsession:\n  ledger: true\n',
    'a: "*x &y !z"\nb: c*d&e!f\nsession:\n  ledger: true\n',
    'session:\n  ledger: true\n  list:\n    - &a 1\n    - *a\n',
    "session:\n  ledger: ''\nnote: ''\n",
    'session:\n  ledger: true\nsession2: {ledger: false}\n',
    'session: [ledger, true]\n',
    'session: {ledger}\n',
    'session: {ledger: true,}\n',
    "session: {ledger: 'true'}\n",
    'session:\n  ledger: >\n    true\n',
    'session:\n  ledger: true\r\n  ledger_path: x\r\n',
  ];
  const root = workspace();
  const unsure: string[] = [];
  for (const text of configs) {
    const full = s0ConfigOfText(text);
    const light = agentsYmlLight(text);
    if (light === 'unsure') unsure.push(text);
    else assert.equal(light, full, JSON.stringify(text));
  }
  for (const text of sure) assert.notEqual(agentsYmlLight(text), 'unsure', JSON.stringify(text));
  for (const text of anchored) assert.equal(agentsYmlLight(text), 'unsure', JSON.stringify(text));
  assert.ok(unsure.length > anchored.length);
  // S0's switch: the light answer when it has one; else the YAML reader's, once one is registered (the CLI's core does).
  writeFileSync(path.join(root, '.agents.yml'), anchored[0]);
  await assert.rejects(ledgerOn(root), NeedsFullReader);
  useFullConfigReader(async () => s0ConfigOfText);
  for (const text of configs) {
    writeFileSync(path.join(root, '.agents.yml'), text);
    assert.equal(await ledgerOn(root), s0ConfigOfText(text) !== 'off', JSON.stringify(text));
  }
  // The meter's modules never import the YAML library.
  for (const f of [
    'context/systems.ts',
    'context/agents-yml-light.ts',
    'context/full-reader.ts',
    'systems/switches.ts',
    'systems/s0/switch.ts',
  ])
    assert.doesNotMatch(readFileSync(path.join(REPO, 'src', 'core', f), 'utf8'), /from ['"]yaml['"]/);
});

test('context reads an .agents.yml with anchors, aliases or merge keys as the S0 reader does: the hook script hands it to the whole CLI, which holds the YAML reader', async () => {
  const cases: Array<[string, boolean]> = [
    ['defaults: &d {ledger: true}\nsession: *d\n', true],
    ['defaults: &d {ledger: false}\nsession: *d\n', false],
    // YAML 1.2 has no merge keys: `<<` is a key like any other, and session.ledger is not set.
    ['defaults: &d\n  ledger: true\nsession:\n  <<: *d\n', false],
    ['%YAML 1.1\n---\ndefaults: &d {ledger: true}\nsession:\n  <<: *d\n', true],
    ['session:\n  ledger: !!bool true\n', true],
  ];
  for (const [cfg, on] of cases) {
    const dir = fixtureCopy('s0/good');
    writeFileSync(path.join(dir, '.agents.yml'), cfg);
    const o = placeOwn(dir);
    appendFileSync(o.file, boundary(o.text));
    const r = run(['context', '--root', dir, '--json'], { env: { CLAUDE_CONFIG_DIR: o.home } });
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.compactions, 2, cfg);
    assert.equal(j.advice !== null, on, cfg);
  }
});

test('a broken .agents.yml does not switch S0 off: context advises checkpoint + /clear after 2 compactions, as the S0 reader checks S0 with a blocking finding', async () => {
  const { evaluate } = await import('../../src/core/report/evaluate');
  const dir = fixtureCopy('s0/good');
  writeFileSync(path.join(dir, '.agents.yml'), 'session:\n  ledger: [true\n');
  const s0 = (await evaluate(dir, { noGit: true })).systems.find((x) => x.id === 'S0');
  assert.equal(s0?.skipped, undefined);
  assert.equal(s0?.checks.find((c) => c.id === 'config')?.severity, 'block');
  const o = placeOwn(dir);
  appendFileSync(o.file, boundary(o.text));
  const j = JSON.parse(run(['context', '--root', dir, '--json'], { env: { CLAUDE_CONFIG_DIR: o.home } }).stdout);
  assert.equal(j.compactions, 2);
  assert.match(j.advice, /^checkpoint, then \/clear/);
});

test('the status bar tooltip and the checklist advise checkpoint + /clear after 2 compactions when S0 is on', async () => {
  const u = {
    agent: 'claude' as const,
    sessionId: OWN.id,
    transcriptPath: '/x.jsonl',
    model: null,
    usedTokens: 1000,
    windowTokens: 200_000,
    percent: 0.5,
    at: null,
    afterCompaction: true,
    source: 'transcript' as const,
  };
  const profile = { profile: 'S0', propose: 70, urgent: 85 };
  const advice = /\$\(history\) 2 compactions in this session: checkpoint, then \/clear and reload the ledger/;
  assert.match(statusView(t, u, profile, 'ok', undefined, { count: 2, advice: S0_ADVICE }).tooltip, advice);
  assert.match(
    statusView(t, u, profile, 'ok', undefined, { count: 2, advice: S0_ADVICE }).tooltip,
    /Compactions in this session: 2/,
  );
  assert.doesNotMatch(
    statusView(t, u, profile, 'ok', undefined, { count: 1, advice: S0_ADVICE }).tooltip,
    /\$\(history\)/,
  );
  assert.doesNotMatch(statusView(t, u, profile, 'ok', undefined, { count: 3, advice: null }).tooltip, /\$\(history\)/);
  const strings = new Proxy(
    {},
    { get: (_, k) => (k === 'status' || k === 'severity' ? {} : String(k)) },
  ) as ChecklistStrings;
  const s0 = fixtureCopy('s0/good');
  const report = await evaluate(s0);
  assert.equal(
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, compactions: 3 })
      .compactionAdvice,
    3,
  );
  assert.equal(
    checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, compactions: 1 })
      .compactionAdvice,
    null,
  );
  const off = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  assert.equal(
    checklistState(await evaluate(off), { name: 'w', uri: 'file:///w' }, strings, {
      busy: false,
      trusted: true,
      compactions: 3,
    }).compactionAdvice,
    null,
  );
});

test('context --json reads .agents.yml and the transcript without loading node:crypto (a file read is hashed only when asked)', async () => {
  const { spawnSync } = await import('node:child_process');
  const { HOOK_SCRIPT, loadedModules, moduleRecorder } = await import('./helpers');
  const root = workspace({
    '.agents.yml': 'session:\n  ledger: true\n',
    '.agents/session_ledger.md': '# Session Ledger\n\n## Goal\nship\n',
  });
  const { home } = placeOwn(root);
  const recorder = moduleRecorder();
  const env = {
    PATH: process.env.PATH,
    HOME: workspace({}, 'sl-home-'),
    TMPDIR: workspace({}, 'sl-tmp-'),
    CLAUDE_CONFIG_DIR: home,
    CODEX_HOME: path.join(root, 'no-codex'),
  };
  const r = spawnSync(process.execPath, ['--require', recorder, HOOK_SCRIPT, 'context', '--json', '--root', root], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).compactions, 1);
  const loaded = loadedModules(r.stderr).required;
  assert.ok(loaded.includes('fs'), r.stderr);
  assert.ok(!loaded.includes('crypto'), `crypto loaded: ${loaded.join(' ')}`);
});
