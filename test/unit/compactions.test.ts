/**
 * S0's "after 2–3 compactions, checkpoint then /clear": counting a Claude Code session's
 * `compact_boundary` records, incrementally, in a real transcript from the corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { countCompactions } from '../../src/core/context/compactions';
import { checklistState } from '../../src/extension/pure/checklistModel';
import { statusView } from '../../src/extension/pure/statusText';
import { evaluate } from '../../src/core/evaluate';
import type { ChecklistStrings } from '../../src/protocol/checklist';
import { CORPUS_SKIP, corpusFile, fixtureCopy, gitInit, REPO, workspace } from './helpers';
import { encoded, run, s3Workspace } from './checkpoint-fixtures';

const REAL = 'F6/marot__spotter__test__fixtures__transcripts__258c7280-ae70-4798-800f-63464d01a85d.jsonl';
const ID = '258c7280-ae70-4798-800f-63464d01a85d';
const t = (m: string, ...args: Array<string | number | boolean>) => m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

/** The real boundary record of the corpus transcript, as another compaction of the same session. */
function boundary(realText: string, o: Record<string, unknown> = {}): string {
  const line = realText.split('\n').find((l) => l.includes('"subtype":"compact_boundary"')) as string;
  return `${JSON.stringify({ ...JSON.parse(line), uuid: `b-${Math.random()}`, timestamp: new Date().toISOString(), ...o })}\n`;
}

/** The real transcript, its cwd rewritten to `root`, in a Claude home for `root`. */
function place(root: string): { home: string; file: string; text: string } {
  const text = readFileSync(corpusFile(REAL), 'utf8').replaceAll('/home/USER/projects/spotter-worktrees/spotter-gqc', root);
  const home = workspace({}, 'sl-claude-');
  const dir = path.join(home, 'projects', encoded(root));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${ID}.jsonl`);
  writeFileSync(file, text);
  return { home, file, text };
}

test('a real transcript: its one compaction; appended ones counted from the new bytes; torn, sidechain, foreign and long lines not', { skip: CORPUS_SKIP }, async () => {
  const { file, text } = place(workspace());
  assert.deepEqual(await countCompactions(file), { count: 1, last: '2026-02-11T21:18:41.543Z' });
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
  appendFileSync(file, `${JSON.stringify({ type: 'user', sessionId: ID, message: { role: 'user', content: `"type":"system","subtype":"compact_boundary" ${'x'.repeat(200_000)}` } })}\n`);
  appendFileSync(file, `${JSON.stringify({ type: 'user', sessionId: ID, message: { role: 'user', content: 'why did the "compact_boundary" record appear?' } })}\n`);
  assert.equal((await countCompactions(file)).count, 3);
  // Cut shorter (rewritten): counted again from the start.
  truncateSync(file, Buffer.byteLength(text));
  assert.equal((await countCompactions(file)).count, 1);
  // Replaced by another file (new inode): counted afresh.
  const other = `${file}.new`;
  writeFileSync(other, text + boundary(text) + boundary(text));
  renameSync(other, file);
  assert.equal((await countCompactions(file)).count, 3);
  assert.deepEqual(await countCompactions(`${file}.missing`), { count: 0, last: null });
});

test('context --json carries `compactions`; with S0 on and 2+ of them, its advice: checkpoint, then /clear', { skip: CORPUS_SKIP }, async () => {
  const s0 = fixtureCopy('s0/good');
  gitInit(s0);
  const { home, file, text } = place(s0);
  let j = JSON.parse(run(['context', '--root', s0, '--json'], { env: { CLAUDE_CONFIG_DIR: home } }).stdout);
  assert.equal(j.sessionId, ID);
  assert.equal(j.compactions, 1);
  assert.equal(j.advice, null);
  appendFileSync(file, boundary(text));
  const r = run(['context', '--root', s0, '--json'], { env: { CLAUDE_CONFIG_DIR: home } });
  j = JSON.parse(r.stdout);
  assert.equal(j.compactions, 2);
  assert.match(j.advice, /^checkpoint, then \/clear/);
  assert.match(run(['context', '--root', s0], { env: { CLAUDE_CONFIG_DIR: home } }).stdout, /2 compactions · checkpoint, then \/clear/);
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

test('the meter\'s light reading of session.ledger agrees with the S0 reader (on, off, broken), without loading the YAML library', async () => {
  const { s0ConfigText } = await import('../../src/core/context/systems');
  const { configOf, parseAgentsYml } = await import('../../src/core/formats/s0');
  const configs = [
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
    'session:\n  ledger: true\n  ledger: false\n',
    '',
    // Valid YAML in shapes the line reader must not mistake for broken.
    '---\nsession:\n  ledger: true\n...\n',
    'session:\n  ledger: true\n  ledger_path: 5\n',
    'name: x\ndescription: >\n  folded: text\n  more: text\nsession:\n  ledger: true\n',
    'tools:\n- a\n- b: 1\n  c: 2\nsession:\n  ledger: true\n',
    'tools:\n  - "x: y"\n  - [a, b]\nsession:\n  ledger: true\n',
    'title: a long\n  plain value\nsession:\n  ledger: true\n',
    'session: { ledger: true,\n  ledger_path: a.md }\n',
    "note: 'it''s # fine'\nsession:\n  ledger: true # yes\n",
    'a: &x 1\nb: *x\nsession:\n  ledger: false\n',
    'session:\n  ledger:\ttrue\n',
    // Broken: the S0 reader blocks (or warns) and checks S0; the meter must say the same.
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
  ];
  for (const text of configs) {
    const meta = parseAgentsYml(text).meta ?? {};
    const cfg = configOf({ findings: [], meta } as unknown as Parameters<typeof configOf>[0]);
    const reader = cfg.broken ? 'broken' : cfg.enabled ? 'on' : 'off';
    assert.equal(s0ConfigText(text), reader, JSON.stringify(text));
  }
  // The meter's modules never import the YAML library.
  for (const f of ['systems.ts', 'yaml-broken.ts']) assert.doesNotMatch(readFileSync(path.join(REPO, 'src', 'core', 'context', f), 'utf8'), /from ['"]yaml['"]/);
});

test('a broken .agents.yml does not switch S0 off: context advises checkpoint + /clear after 2 compactions, as the S0 reader checks S0 with a blocking finding', { skip: CORPUS_SKIP }, async () => {
  const { evaluate } = await import('../../src/core/evaluate');
  const dir = fixtureCopy('s0/good');
  writeFileSync(path.join(dir, '.agents.yml'), 'session:\n  ledger: [true\n');
  const s0 = (await evaluate(dir, { noGit: true })).systems.find((x) => x.id === 'S0');
  assert.equal(s0?.skipped, undefined);
  assert.equal(s0?.checks.find((c) => c.id === 'config')?.severity, 'block');
  const o = place(dir);
  appendFileSync(o.file, boundary(o.text));
  const j = JSON.parse(run(['context', '--root', dir, '--json'], { env: { CLAUDE_CONFIG_DIR: o.home } }).stdout);
  assert.equal(j.compactions, 2);
  assert.match(j.advice, /^checkpoint, then \/clear/);
});

test('the status bar tooltip and the checklist advise checkpoint + /clear after 2 compactions when S0 is on', async () => {
  const u = { agent: 'claude' as const, sessionId: ID, transcriptPath: '/x.jsonl', model: null, usedTokens: 1000, windowTokens: 200_000, percent: 0.5, at: null, afterCompaction: true, source: 'transcript' as const };
  const profile = { profile: 'S0', propose: 70, urgent: 85 };
  const advice = /\$\(history\) 2 compactions in this session: checkpoint, then \/clear and reload the ledger/;
  assert.match(statusView(t, u, profile, 'ok', undefined, { count: 2, s0: true }).tooltip, advice);
  assert.match(statusView(t, u, profile, 'ok', undefined, { count: 2, s0: true }).tooltip, /Compactions in this session: 2/);
  assert.doesNotMatch(statusView(t, u, profile, 'ok', undefined, { count: 1, s0: true }).tooltip, /\$\(history\)/);
  assert.doesNotMatch(statusView(t, u, profile, 'ok', undefined, { count: 3, s0: false }).tooltip, /\$\(history\)/);
  const strings = new Proxy({}, { get: (_, k) => (k === 'status' || k === 'severity' ? {} : String(k)) }) as ChecklistStrings;
  const s0 = fixtureCopy('s0/good');
  const report = await evaluate(s0);
  assert.equal(checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, compactions: 3 }).compactionAdvice, 3);
  assert.equal(checklistState(report, { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, compactions: 1 }).compactionAdvice, null);
  const off = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  assert.equal(checklistState(await evaluate(off), { name: 'w', uri: 'file:///w' }, strings, { busy: false, trusted: true, compactions: 3 }).compactionAdvice, null);
});
