/**
 * The context figure from every transcript of the corpus and from transcripts written here.
 * Expected corpus figures were computed independently with a whole-file script (parse every line,
 * keep the last main-chain assistant usage / compact_boundary / token_count) and are kept as numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ContextFollower, measure, type ContextUsage } from '../../src/core/context';
import { CORPORA, CORPUS_SESSIONS, OWN_CORPUS, workspace, write } from './helpers';
import {
  asst,
  codexCount,
  codexItem,
  codexMeta,
  codexTurn,
  compact,
  lines,
  ofFolder,
  progress,
  toolResult,
} from './context-records';

interface Expect {
  agent: 'claude' | 'codex';
  used: number;
  window: number | null;
  percent: number | null;
  model: string | null;
  session: string | null;
  at: string | null;
}

const F6 = 'F6/';
const CORPUS_EXPECT: Record<string, Expect | null> = {
  'daaain__claude-code-log__test__test_data__edge_cases.jsonl': {
    agent: 'claude',
    used: 168,
    window: 200000,
    percent: 0.08,
    model: 'claude-sonnet-4',
    session: 'todowrite_session',
    at: '2025-06-14T10:02:00Z',
  },
  'daaain__claude-code-log__test__test_data__representative_messages.jsonl': {
    agent: 'claude',
    used: 45,
    window: 200000,
    percent: 0.02,
    model: 'claude-3-sonnet-20240229',
    session: 'test_session',
    at: '2025-06-14T10:03:30Z',
  },
  'daaain__claude-code-log__test__test_data__session_b.jsonl': {
    agent: 'claude',
    used: 20,
    window: 200000,
    percent: 0.01,
    model: 'claude-3-sonnet-20240229',
    session: 'session_b',
    at: '2025-06-14T12:00:30Z',
  },
  'daaain__claude-code-log__test__test_data__todowrite_examples.jsonl': {
    agent: 'claude',
    used: 270,
    window: 200000,
    percent: 0.14,
    model: 'claude-sonnet-4',
    session: 'todowrite_session',
    at: '2025-06-14T10:04:00Z',
  },
  'madshn__localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl':
    {
      agent: 'codex',
      used: 164699,
      window: 258400,
      percent: 63.74,
      model: 'gpt-5.3-codex',
      session: '019c8a4c-ed82-79a1-aa28-7738fc5ab61a',
      at: '2026-02-23T12:45:33.360Z',
    },
  'madshn__localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-2026-02-23T12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl':
    {
      agent: 'codex',
      used: 143469,
      window: 258400,
      percent: 55.52,
      model: 'gpt-5.3-codex',
      session: '019c8a53-a0dd-7130-bcd7-95445d84846a',
      at: '2026-02-23T12:42:26.678Z',
    },
  // Its first token_count has `info: null`; the second is the figure.
  'madshn__localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl':
    {
      agent: 'codex',
      used: 34900,
      window: 258400,
      percent: 13.51,
      model: 'gpt-5.3-codex',
      session: '019c8a70-dda7-7f33-98ea-f30553347322',
      at: '2026-02-23T12:19:52.689Z',
    },
  // Real session with a compact_boundary at line 1256 and assistant records after it: 1 + 214 + 38768.
  'marot__spotter__test__fixtures__transcripts__258c7280-ae70-4798-800f-63464d01a85d.jsonl': {
    agent: 'claude',
    used: 38983,
    window: 200000,
    percent: 19.49,
    model: 'claude-opus-4-6',
    session: '258c7280-ae70-4798-800f-63464d01a85d',
    at: '2026-02-11T21:19:35.672Z',
  },
  // Subagent transcripts: every record is a sidechain record, so no main-chain usage.
  'marot__spotter__test__fixtures__transcripts__258c7280-ae70-4798-800f-63464d01a85d__subagents__agent-a881341.jsonl':
    null,
  'marot__spotter__test__fixtures__transcripts__258c7280-ae70-4798-800f-63464d01a85d__subagents__agent-acompact-fffbd0.jsonl':
    null,
  'marot__spotter__test__fixtures__transcripts__short.jsonl': {
    agent: 'claude',
    used: 25353,
    window: 200000,
    percent: 12.68,
    model: 'claude-opus-4-6',
    session: '55604662-cf2a-4331-851a-ec234028f8ca',
    at: '2026-02-10T21:12:01.669Z',
  },
  'marot__spotter__test__fixtures__transcripts__subagent.jsonl': {
    agent: 'claude',
    used: 43861,
    window: 200000,
    percent: 21.93,
    model: 'claude-opus-4-6',
    session: '491e126e-1e71-469c-ade2-fcc8af567c74',
    at: '2026-02-10T22:03:51.679Z',
  },
  'marot__spotter__test__fixtures__transcripts__tool_heavy.jsonl': {
    agent: 'claude',
    used: 27666,
    window: 200000,
    percent: 13.83,
    model: 'claude-opus-4-6',
    session: 'd6e0bada-1959-4eec-a9d2-0bfade768d8f',
    at: '2026-02-10T22:59:37.598Z',
  },
  // ccusage fixtures: records without `type`, only `message.role`: 300 + 0 + 40.
  'ryoppippi__ccusage__apps__ccusage__test__fixtures__claude__projects__project-alpha__session-alpha__chat.jsonl': {
    agent: 'claude',
    used: 340,
    window: 200000,
    percent: 0.17,
    model: 'claude-sonnet-4-20250514',
    session: 'session-alpha',
    at: '2026-01-10T09:15:00.000Z',
  },
  'ryoppippi__ccusage__apps__ccusage__test__fixtures__claude__projects__project-beta__session-beta__chat.jsonl': {
    agent: 'claude',
    used: 115,
    window: 200000,
    percent: 0.06,
    model: 'claude-haiku-4-5-20251001',
    session: 'session-beta',
    at: '2026-02-03T11:45:00.000Z',
  },
  // No session_meta, no model_context_window: the window is unknown, so tokens without a percentage; model from `info.model`.
  'ryoppippi__ccusage__apps__ccusage__test__fixtures__codex__sessions__project-alpha__session-alpha.jsonl': {
    agent: 'codex',
    used: 3000,
    window: null,
    percent: null,
    model: 'gpt-5.3-codex',
    session: null,
    at: '2026-05-14T10:00:00.000Z',
  },
  // 2000 + 200 + 800, no model, no timestamps: the window is unknown, so tokens without a percentage.
  'ryoppippi__ccusage__apps__ccusage__test__test-transcript.jsonl': {
    agent: 'claude',
    used: 3000,
    window: null,
    percent: null,
    model: null,
    session: null,
    at: null,
  },
  // No token_count at all / no usage at all.
  'simonw__claude-code-transcripts__tests__sample_codex_session.jsonl': null,
  'simonw__claude-code-transcripts__tests__sample_session.jsonl': null,
};

function check(u: ContextUsage | undefined, e: Expect, file: string): void {
  assert.ok(u, `${file}: a figure`);
  assert.equal(u.agent, e.agent, file);
  assert.equal(u.usedTokens, e.used, file);
  assert.equal(u.windowTokens, e.window, file);
  assert.equal(u.percent, e.percent, file);
  assert.equal(u.model, e.model, file);
  assert.equal(u.sessionId, e.session, file);
  assert.equal(u.at, e.at, file);
  assert.equal(u.afterCompaction, false, file);
  assert.equal(u.source, 'transcript', file);
  assert.equal(u.transcriptPath, file);
}

/** The in-repo corpus's F6, computed by hand from its records (see CORPUS_SESSIONS in helpers.ts). */
const OWN_EXPECT: Record<string, Expect | null> = {
  'own__notes-app__claude__5d3c1e2a-8b7f-4c6d-9e0a-1f2b3c4d5e6f.jsonl': {
    agent: 'claude',
    used: 20121,
    window: 200000,
    percent: 10.06,
    model: 'claude-opus-4-6',
    session: '5d3c1e2a-8b7f-4c6d-9e0a-1f2b3c4d5e6f',
    at: '2026-03-05T09:03:40.900Z',
  },
  'own__notes-app__claude__5d3c1e2a-8b7f-4c6d-9e0a-1f2b3c4d5e6f__subagents__agent-b7e2f0a.jsonl': null,
  'own__notes-app__codex__rollout-2026-03-06T10-00-00-019d1f2e-3a4b-7c5d-8e6f-7a8b9c0d1e2f.jsonl': {
    agent: 'codex',
    used: 41980,
    window: 258400,
    percent: 16.25,
    model: 'gpt-5.3-codex',
    session: '019d1f2e-3a4b-7c5d-8e6f-7a8b9c0d1e2f',
    at: '2026-03-06T10:00:12.300Z',
  },
};

for (const { name: corpus, dir } of CORPORA) {
  const table = dir === OWN_CORPUS ? OWN_EXPECT : CORPUS_EXPECT;
  test(`${corpus}: every transcript of F6 gives the independently computed figure`, async () => {
    const root = workspace();
    const files = readdirSync(path.join(dir, F6))
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    assert.deepEqual(files, Object.keys(table).sort(), 'the table covers every transcript of F6');
    for (const name of files) {
      const file = path.join(dir, F6, name);
      const got = await measure(root, { transcript: file });
      const e = table[name];
      if (e === null) assert.deepEqual(got, [], name);
      else check(got[0], e, file);
    }
  });
}

for (const { corpus, claude } of CORPUS_SESSIONS)
  test(`${corpus}: the session read with a backward budget of a quarter of it still finds its figure (answer near the end)`, async () => {
    const budget = Math.min(64 * 1024, Math.floor(statSync(claude.file).size / 4));
    const f = new ContextFollower(
      { agent: 'claude', sessionId: null, path: claude.file, mtime: 0 },
      { maxScanBytes: budget },
    );
    assert.equal((await f.read())?.usedTokens, claude.used);
  });

async function one(
  content: string | Buffer,
  opts: Parameters<typeof measure>[1] = {},
  name = 'session.jsonl',
): Promise<ContextUsage | undefined> {
  const dir = workspace();
  const file = write(dir, name, content);
  const got = await measure(dir, { transcript: file, ...opts });
  assert.ok(got.length <= 1);
  return got[0];
}

test('a transcript ending in a compaction: postTokens, flagged, with the model of the last assistant record', async () => {
  const u = await one(
    lines(
      asst({ input: 10, create: 2000, read: 150000, model: 'claude-opus-4-6' }),
      toolResult(2000),
      compact(12345),
      progress(),
    ),
  );
  assert.equal(u?.usedTokens, 12345);
  assert.equal(u?.afterCompaction, true);
  assert.equal(u?.model, 'claude-opus-4-6');
  assert.equal(u?.at, '2026-02-11T21:30:00.000Z');
  assert.equal(u?.percent, 6.17);
  // A compaction without postTokens: the figure is 0 until the next answer.
  const z = await one(lines(asst({ read: 150000 }), compact(undefined)));
  assert.equal(z?.usedTokens, 0);
  assert.equal(z?.afterCompaction, true);
  // An assistant record after the boundary ends the compaction state.
  const a = await one(
    lines(asst({ read: 150000 }), compact(9000), asst({ input: 5, create: 100, read: 20000, id: 'msg_2' })),
  );
  assert.equal(a?.usedTokens, 20105);
  assert.equal(a?.afterCompaction, false);
  // A compaction only (no assistant record anywhere): the figure, no model.
  const c = await one(lines(compact(4000)));
  assert.equal(c?.usedTokens, 4000);
  assert.equal(c?.model, null);
});

test('sidechain records after the last main-chain record are ignored', async () => {
  const u = await one(
    lines(
      asst({ input: 3, create: 500, read: 50000 }),
      asst({ input: 1, read: 99999, sidechain: true, id: 'side' }),
      compact(7, undefined).replace('"isSidechain":false', '"isSidechain":true'),
    ),
  );
  assert.equal(u?.usedTokens, 50503);
  assert.equal(u?.afterCompaction, false);
});

test('one message repeated over several records counts once (output excluded)', async () => {
  const rec = (text: string, output: number) =>
    asst({ id: 'msg_same', input: 2, create: 300, read: 40000, output, text });
  const u = await one(lines(asst({ id: 'msg_0', read: 10 }), rec('thinking', 1), rec('text', 1), rec('tool_use', 812)));
  assert.equal(u?.usedTokens, 40302);
});

test('a torn last line is skipped; a complete last line without newline counts', async () => {
  const good = asst({ input: 1, read: 30000 });
  const torn = asst({ input: 1, read: 90000, id: 'msg_9' }).slice(0, -3);
  const u = await one(lines(good) + torn);
  assert.equal(u?.usedTokens, 30001);
  const v = await one(lines(good) + asst({ input: 1, read: 90000, id: 'msg_9' }));
  assert.equal(v?.usedTokens, 90001);
});

test('a [1m] model has a 1,000,000 window; usage past 200k implies it; the override wins', async () => {
  const u = await one(lines(asst({ model: 'claude-sonnet-4-5-20250929[1m]', input: 10, create: 0, read: 299990 })));
  assert.equal(u?.windowTokens, 1_000_000);
  assert.equal(u?.percent, 30);
  const big = await one(lines(asst({ model: 'claude-sonnet-4-5-20250929', read: 250000, input: 0 })));
  assert.equal(big?.windowTokens, 1_000_000);
  const plain = await one(lines(asst({ model: 'claude-sonnet-4-5-20250929', read: 150000, input: 0 })));
  assert.equal(plain?.windowTokens, 200_000);
  assert.equal(plain?.percent, 75);
  const over = await one(lines(asst({ model: 'claude-sonnet-4-5-20250929', read: 150000, input: 0 })), {
    windowTokens: 500_000,
  });
  assert.equal(over?.windowTokens, 500_000);
  assert.equal(over?.percent, 30);
});

test('a long run of large user/tool records after the last assistant record (3 MB) is read through', async () => {
  const tail = Array.from({ length: 190 }, (_, i) => (i % 5 === 4 ? progress() : toolResult(16 * 1024)));
  const u = await one(lines(asst({ input: 7, read: 70000 }), ...tail));
  assert.equal(u?.usedTokens, 70007);
});

test('more than 8 MB of records after the last usage (a long tool run) still gives the figure', async () => {
  const tail = Array.from({ length: 40 }, () => toolResult(256 * 1024)); // ~20 MB of records
  const u = await one(lines(asst({ input: 7, read: 70000 }), ...tail));
  assert.equal(u?.usedTokens, 70007);
});

test('a budget given by the caller bounds the backward scan: past it, no figure, and the follower says it gave up there', async () => {
  const dir = workspace();
  const file = write(dir, 's.jsonl', lines(asst({ read: 5 }), toolResult(200 * 1024)));
  const f = new ContextFollower({ agent: 'claude', sessionId: 's', path: file, mtime: 0 }, { maxScanBytes: 64 * 1024 });
  assert.equal(await f.read(), null);
  assert.equal(f.scanLimit, 64 * 1024);
  // Read back to the file's start with no usage in it: no limit to name.
  const none = write(dir, 't.jsonl', lines(toolResult(1024)));
  const g = new ContextFollower({ agent: 'claude', sessionId: 't', path: none, mtime: 0 }, { maxScanBytes: 64 * 1024 });
  assert.equal(await g.read(), null);
  assert.equal(g.scanLimit, null);
});

/** A user record with a pasted image of `bytes` of base64 (and the word "assistant" in its text). */
function pastedImage(bytes: number): string {
  return JSON.stringify({
    isSidechain: false,
    type: 'user',
    sessionId: 'sess-1',
    message: {
      role: 'user',
      content: [
        { type: 'text', text: 'the assistant said "type":"assistant" here' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.padEnd(bytes, 'A') } },
      ],
    },
    timestamp: '2026-02-11T21:19:50.000Z',
  });
}

/** Count JSON.parse calls on strings longer than `min` while `fn` runs. */
async function bigParses<T>(min: number, fn: () => Promise<T>): Promise<{ value: T; parses: number }> {
  const real = JSON.parse;
  let parses = 0;
  JSON.parse = ((text: string, reviver?: (k: string, v: unknown) => unknown) => {
    if (typeof text === 'string' && text.length > min) parses++;
    return real(text, reviver);
  }) as typeof JSON.parse;
  try {
    return { value: await fn(), parses };
  } finally {
    JSON.parse = real;
  }
}

test('a newest record larger than 8 MB (a pasted image) is passed over, unparsed, and the figure is found behind it', async () => {
  const { value: u, parses } = await bigParses(1024 * 1024, () =>
    one(lines(asst({ input: 3, read: 42000 }), pastedImage(9 * 1024 * 1024), progress())),
  );
  assert.equal(u?.usedTokens, 42003);
  assert.equal(parses, 0, 'the 9 MB line mentions "assistant" but is not JSON-parsed');
  // Longer than any usage record can be (over 16 MB): never held whole, still passed over.
  const v = await one(lines(asst({ input: 4, read: 43000 }), pastedImage(17 * 1024 * 1024)));
  assert.equal(v?.usedTokens, 43004);
});

test('following: a huge record appended, then a reply: the figure moves on', async () => {
  const dir = workspace();
  const file = write(dir, 's.jsonl', lines(asst({ read: 100, input: 0 })));
  const f = new ContextFollower({ agent: 'claude', sessionId: 's', path: file, mtime: 0 });
  assert.equal((await f.read())?.usedTokens, 100);
  appendFileSync(file, lines(pastedImage(17 * 1024 * 1024)));
  const { value: same, parses } = await bigParses(1024 * 1024, () => f.read());
  assert.equal(same?.usedTokens, 100);
  assert.equal(parses, 0);
  appendFileSync(file, lines(pastedImage(5 * 1024 * 1024), asst({ read: 300, input: 0, id: 'm3' })));
  assert.equal((await f.read())?.usedTokens, 300);
});

test('non-JSON and non-object lines, CRLF and blank lines are skipped', async () => {
  const junk = [
    'garbage',
    '42',
    '[1]',
    '"massive error"',
    'null',
    '{',
    '{"type":"assistant","message":"error"}',
    '{"type":"assistant","message":{"usage":"x"}}',
    '',
    '   ',
    '\u0000\u0001',
  ];
  const u = await one(lines(asst({ input: 1, create: 1, read: 1000 }), ...junk));
  assert.equal(u?.usedTokens, 1002);
  const crlf = await one([asst({ read: 10 }), asst({ read: 2000, id: 'm2' }), toolResult(10)].join('\r\n') + '\r\n');
  assert.equal(crlf?.usedTokens, 2001);
  // A synthetic record (`<synthetic>`, no API call) carries no figure.
  const syn = await one(lines(asst({ read: 4000 }), asst({ model: '<synthetic>', input: 0, read: 0, id: 'syn' })));
  assert.equal(syn?.usedTokens, 4001);
});

test('an empty file and a file without usage give no figure', async () => {
  assert.equal(await one(''), undefined);
  assert.equal(await one('\n\n'), undefined);
  assert.equal(await one(lines(toolResult(100), progress())), undefined);
});

test('Codex: last token_count with non-null info; model from turn_context; window from the record', async () => {
  const id = '019c8a70-dda7-7f33-98ea-f30553347322';
  const u = await one(
    lines(
      codexMeta(id, '/p'),
      codexTurn('gpt-5.2-codex'),
      codexCount(50000),
      codexTurn('gpt-5.3-codex'),
      codexCount(60000, 272000),
      codexItem(40000),
      codexCount(null),
    ),
    {},
    `rollout-2026-02-23T13-19-38-${id}.jsonl`,
  );
  assert.equal(u?.agent, 'codex');
  assert.equal(u?.usedTokens, 60000);
  assert.equal(u?.windowTokens, 272000);
  assert.equal(u?.percent, 22.06);
  assert.equal(u?.model, 'gpt-5.3-codex');
  assert.equal(u?.sessionId, id);
  // The session id comes from session_meta when the name does not carry it; --agent forces the reader.
  const v = await one(lines(codexMeta('abc', '/p'), codexCount(1000)), { agent: 'codex' }, 'whatever.jsonl');
  assert.equal(v?.sessionId, 'abc');
  assert.equal(v?.agent, 'codex');
  // Only null infos: nothing yet.
  assert.equal(await one(lines(codexMeta('abc', '/p'), codexCount(null))), undefined);
});

test('the agent is recognised from the content, not the name', async () => {
  const c = await one(lines(codexTurn('gpt-5'), codexCount(1234)), {}, 'claude-looking.jsonl');
  assert.equal(c?.agent, 'codex');
  const a = await one(lines(asst({ read: 77 })), {}, 'rollout-2026-01-01T00-00-00-x.jsonl');
  assert.equal(a?.agent, 'claude');
});

test('measure(root) uses discovery for both agents; a missing transcript gives nothing', async () => {
  const home = workspace({}, 'sl-home-');
  const root = workspace();
  const { encodeClaudeProjectDir } = await import('../../src/core/context');
  write(
    path.join(home, 'projects', encodeClaudeProjectDir(root)),
    '11111111-2222-3333-4444-555555555555.jsonl',
    ofFolder(lines(asst({ read: 1000, input: 0 })), root),
  );
  const codex = workspace({}, 'sl-codex-');
  write(
    codex,
    'sessions/2026/03/01/rollout-2026-03-01T00-00-00-aaaaaaaa-2222-3333-4444-555555555555.jsonl',
    lines(codexMeta('aaaaaaaa-2222-3333-4444-555555555555', root), codexCount(5000)),
  );
  const all = await measure(root, { claudeHome: home, codexHome: codex });
  assert.deepEqual(all.map((u) => [u.agent, u.usedTokens, u.sessionId]).sort(), [
    ['claude', 1000, '11111111-2222-3333-4444-555555555555'],
    ['codex', 5000, 'aaaaaaaa-2222-3333-4444-555555555555'],
  ]);
  assert.deepEqual(
    (await measure(root, { claudeHome: home, codexHome: codex, agent: 'codex' })).map((u) => u.agent),
    ['codex'],
  );
  assert.deepEqual(await measure(root, { transcript: path.join(root, 'nope.jsonl') }), []);
});
