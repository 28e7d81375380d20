/**
 * A Codex CLI thread's compactions, read from its rollout: Codex 0.171.0 writes one `compacted` record
 * per compaction, manual (`/compact`) or automatic, `{"timestamp":…,"ordinal":…,"type":"compacted",
 * "payload":{"message":…,"replacement_history":[…],…,"window_number":N,…}}`. On a real rollout of that
 * client (CODEX_COMPACTIONS_FIXTURE: one /compact, then one automatic compaction).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { countCompactions, COUNT_BUDGET_BYTES } from '../../src/core/context/compactions';
import { cli, workspace } from './helpers';
import {
  CODEX_COMPACTIONS,
  CODEX_COMPACTIONS_FIXTURE as FIXTURE,
  CODEX_THREAD,
  emptyClaudeHome,
  placeCodexRollout,
} from './checkpoint-fixtures';

const lines = (text: string) => text.split('\n').filter(Boolean);

test("a Codex CLI rollout's compactions: its `compacted` records, the manual /compact's and the automatic one's, the newest one's time", async () => {
  const { file, text } = placeCodexRollout(workspace());
  assert.deepEqual(await countCompactions(file, Infinity, 'codex'), {
    count: 2,
    last: CODEX_COMPACTIONS[1],
    complete: true,
  });
  // Each record is exactly one compaction: the ContextCompaction item Codex also writes is not a second one.
  assert.equal(lines(text).filter((l) => l.includes('"type":"ContextCompaction"')).length, 2);
  assert.equal(lines(text).filter((l) => JSON.parse(l).type === 'compacted').length, 2);
});

test('Codex: counted from the bytes appended since; a torn record once its head is whole; a rollout cut shorter counted again', async () => {
  const all = lines(readFileSync(FIXTURE, 'utf8'));
  const second = all.findIndex((l, i) => i > 0 && JSON.parse(l).type === 'compacted' && JSON.parse(l).ordinal === 40);
  assert.ok(second > 0);
  const before = `${all.slice(0, second).join('\n')}\n`;
  const { file } = placeCodexRollout(workspace(), undefined, before);
  assert.deepEqual(await countCompactions(file, Infinity, 'codex'), {
    count: 1,
    last: CODEX_COMPACTIONS[0],
    complete: true,
  });
  // The client mid-write: the record's head is not yet there.
  appendFileSync(file, all[second].slice(0, 40));
  assert.equal((await countCompactions(file, Infinity, 'codex')).count, 1);
  appendFileSync(file, `${all[second].slice(40)}\n${all.slice(second + 1).join('\n')}\n`);
  assert.deepEqual(await countCompactions(file, Infinity, 'codex'), {
    count: 2,
    last: CODEX_COMPACTIONS[1],
    complete: true,
  });
  writeFileSync(file, before);
  assert.equal((await countCompactions(file, Infinity, 'codex')).count, 1);
});

test('Codex: a compaction record of any length counts, read from its head only (a long thread keeps its user messages in it), in budgeted steps', async () => {
  const all = lines(readFileSync(FIXTURE, 'utf8'));
  const i = all.findIndex((l) => JSON.parse(l).type === 'compacted');
  const rec = JSON.parse(all[i]) as { payload: { replacement_history: unknown[] } };
  // Longer than a read chunk (1 MB) and than the budget of one short-lived process.
  const long = (n: number) => {
    const o = structuredClone(rec);
    o.payload.replacement_history.push({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'a'.repeat(n) }],
    });
    return JSON.stringify(o);
  };
  const text = [...all.slice(0, i), long(1_500_000), ...all.slice(i + 1), long(100_000), ''].join('\n');
  const { file } = placeCodexRollout(workspace(), undefined, text);
  let c = await countCompactions(file, COUNT_BUDGET_BYTES, 'codex');
  let calls = 1;
  while (!c.complete) {
    assert.ok(calls < 20, 'each call goes on from where the last stopped');
    c = await countCompactions(file, COUNT_BUDGET_BYTES, 'codex');
    calls++;
  }
  assert.ok(calls > 1, 'the budget ran out at least once');
  assert.deepEqual(c, { count: 3, last: CODEX_COMPACTIONS[0], complete: true });
});

test("Codex: the count is the same whatever the budget, wherever the edges of the reads fall (inside a record's head, inside its body, across a 1 MB chunk)", async () => {
  const all = lines(readFileSync(FIXTURE, 'utf8'));
  const records = all.filter((l) => JSON.parse(l).type === 'compacted');
  const padded = (l: string, n: number) => {
    const o = JSON.parse(l);
    o.payload.message += 'z'.repeat(n);
    return JSON.stringify(o);
  };
  // The real lines, then records of every length among them; the whole longer than a 1 MB chunk.
  const text = [
    ...all,
    padded(records[0], 5000),
    ...all.slice(0, 9),
    padded(records[1], 1_100_000),
    records[0],
    padded(records[1], 70_000),
    ...all.slice(20, 30),
    records[1],
    '',
  ].join('\n');
  const expected = { count: 7, last: CODEX_COMPACTIONS[1], complete: true };
  for (const budget of [8193, 10_000, 65_537, COUNT_BUDGET_BYTES, Infinity]) {
    const { file } = placeCodexRollout(workspace(), undefined, text);
    let c = await countCompactions(file, budget, 'codex');
    for (let i = 0; !c.complete; i++) {
      assert.ok(i < 400, `budget ${budget}: goes on`);
      c = await countCompactions(file, budget, 'codex');
    }
    assert.deepEqual(c, expected, `budget ${budget}`);
  }
});

test("Codex: the words of a compaction record inside a message, a `compacted` member that is not the record's own type, are no compaction", async () => {
  const { file } = placeCodexRollout(workspace());
  const at = '2026-12-06T23:00:00.000Z';
  const records = [
    // What the user pasted: inside a JSON string the quotes are escaped.
    {
      timestamp: at,
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '{"timestamp":"x","type":"compacted","payload":{}}' }],
      },
    },
    // A nested object of that type is not the record's type.
    { timestamp: at, type: 'event_msg', payload: { type: 'compacted', message: 'nested' } },
    { timestamp: at, compacted: true, type: 'event_msg', payload: { status: 'compacted' } },
  ];
  appendFileSync(file, records.map((o) => `${JSON.stringify(o)}\n`).join(''));
  assert.deepEqual(await countCompactions(file, Infinity, 'codex'), {
    count: 2,
    last: CODEX_COMPACTIONS[1],
    complete: true,
  });
});

test('context --json --agent codex gives the compactions of the thread its rollout records (not null)', () => {
  const root = workspace();
  const { home } = placeCodexRollout(root);
  const r = cli(['context', '--json', '--agent', 'codex'], {
    cwd: root,
    env: { CODEX_HOME: home, CLAUDE_CONFIG_DIR: emptyClaudeHome(), HOME: workspace({}, 'sl-home-') },
  });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.agent, 'codex');
  assert.equal(j.sessionId, CODEX_THREAD);
  assert.equal(j.compactions, 2);
  const plain = cli(['context', '--agent', 'codex'], {
    cwd: root,
    env: { CODEX_HOME: home, CLAUDE_CONFIG_DIR: emptyClaudeHome(), HOME: workspace({}, 'sl-home-') },
  });
  assert.match(plain.stdout, / · 2 compactions · /);
});
