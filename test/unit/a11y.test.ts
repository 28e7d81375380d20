/** What a screen reader hears and what shows without colour: the status item's label and icon, the tree rows' names. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Check, ContextUsage, Item } from '../../src/core/model/model';
import { noFigureView, statusLabel, statusView, type GuardView } from '../../src/extension/pure/status-text';
import { compactionsAdviceOf } from '../../src/core/context/compactions';
import { findingName, itemLabel, itemName, lineLabel, plainText, spoken } from '../../src/extension/pure/tree-text';

const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
const usage = (percent: number | null, o: Partial<ContextUsage> = {}): ContextUsage => ({
  agent: 'claude',
  sessionId: 'abc-123',
  transcriptPath: '/t.jsonl',
  model: 'claude-opus-4',
  usedTokens: 92_000,
  windowTokens: percent === null ? null : 200_000,
  percent,
  at: '2026-12-01T00:00:00Z',
  afterCompaction: false,
  source: 'transcript',
  ...o,
});
const S3 = { profile: 'S3', propose: 15, urgent: 40 };

test('status label: the figure, the mark passed and whose mark, in plain words', () => {
  assert.equal(
    statusLabel(t, usage(46), S3, 'urgent'),
    'Session Ledger: context 46 percent, past the urgent mark for S3. Checkpoint now.',
  );
  assert.equal(
    statusLabel(t, usage(30), S3, 'propose'),
    'Session Ledger: context 30 percent, past the checkpoint mark for S3. Checkpoint proposed.',
  );
  assert.equal(
    statusLabel(t, usage(10), S3, 'ok'),
    'Session Ledger: context 10 percent, under the checkpoint mark for S3 (15 percent).',
  );
  assert.equal(
    statusLabel(t, usage(4.44), S3, 'ok'),
    'Session Ledger: context 4.4 percent, under the checkpoint mark for S3 (15 percent).',
  );
  const def = { profile: 'default', propose: 60, urgent: 80 };
  assert.equal(
    statusLabel(t, usage(85), def, 'urgent'),
    'Session Ledger: context 85 percent, past the urgent mark (80 percent). Checkpoint now.',
  );
  assert.equal(
    statusLabel(t, usage(65), { profile: 'custom', propose: 55, urgent: 90 }, 'propose'),
    'Session Ledger: context 65 percent, past the checkpoint mark (55 percent). Checkpoint proposed.',
  );
  assert.equal(
    statusLabel(t, usage(null), def, 'ok'),
    'Session Ledger: context 92,000 tokens used; the window of this model is unknown, so there is no percentage.',
  );
});

// What the guard would decide follows as a sentence, without icon syntax; without the guard hook installed it
// says /compact is not guarded, not that the guard would stop it.
for (const [installed, said] of [
  [true, '/compact would be stopped by the guard: no checkpoint in this session.'],
  [false, '/compact is not guarded: the guard hook is not installed in this folder (run "Install guard hooks").'],
] as const)
  test(`status label: the guard's decision as a sentence (guard hook ${installed ? 'installed' : 'not installed'})`, () => {
    const l = statusLabel(t, usage(46), S3, 'urgent', {
      allow: false,
      rule: 'no-marker',
      marker: null,
      maxAgeMin: 480,
      installed,
    });
    assert.equal(l, `Session Ledger: context 46 percent, past the urgent mark for S3. Checkpoint now. ${said}`);
  });

test("Restricted Mode: the status item names no command that cannot run there, says what is true, and offers to trust the folder (VS Code's workbench.trust.manage)", () => {
  const notInstalled = { allow: true, rule: 'no-marker', marker: null, maxAgeMin: 480, installed: false };
  const now = Date.parse('2026-12-06T00:00:00Z');
  const restricted = statusView(t, usage(34), S3, 'propose', notInstalled, undefined, now, false);
  for (const said of [restricted.tooltip, restricted.label]) {
    assert.doesNotMatch(said, /Install guard hooks/, 'nothing can be installed in Restricted Mode');
    assert.match(
      said,
      /\/compact is not guarded: the guard hook is not installed in this folder, and in Restricted Mode it cannot be\./,
    );
    assert.match(
      said,
      /Restricted Mode: Session Ledger reads and shows, but writes nothing \(no marker, no guard hooks\)\. Trust this folder to checkpoint from here\./,
    );
  }
  assert.doesNotMatch(restricted.tooltip, /command:sessionLedger\.checkpointNow/, 'no Checkpoint now link');
  assert.match(
    restricted.tooltip,
    /\[\$\(workspace-trusted\) Manage Workspace Trust\]\(command:workbench\.trust\.manage\)/,
  );
  assert.match(restricted.tooltip, /\(command:sessionLedger\.openChecklist\)/, 'the checklist still opens (read-only)');
  assert.doesNotMatch(restricted.label, /\$\(|command:/, 'the label is plain words');
  // Trusted: as before.
  const trusted = statusView(t, usage(34), S3, 'propose', notInstalled, undefined, now);
  assert.match(trusted.tooltip, /\(command:sessionLedger\.checkpointNow\)/);
  assert.match(trusted.label, /\(run "Install guard hooks"\)\.$/);
  // The step the guard's line names is a link beside the others.
  assert.match(trusted.tooltip, /\[\$\(shield\) Install guard hooks\]\(command:sessionLedger\.installHooks\)/);
  assert.doesNotMatch(restricted.tooltip, /command:sessionLedger\.installHooks/);
  const installed = statusView(t, usage(34), S3, 'propose', { ...notInstalled, installed: true }, undefined, now);
  assert.doesNotMatch(installed.tooltip, /command:sessionLedger\.installHooks/, 'no link once it is installed');
  assert.doesNotMatch(trusted.tooltip, /Restricted Mode|workbench\.trust/);
});

test('status label: past a mark with the checkpoint made, it says the checkpoint is done, not to checkpoint again', () => {
  for (const level of ['propose', 'urgent'] as const) {
    const l = statusLabel(t, usage(46), S3, level, {
      allow: true,
      rule: 'idle',
      marker: '.claude/.checkpoint-ready.s',
      maxAgeMin: 480,
      installed: true,
    });
    assert.equal(
      l,
      `Session Ledger: context 46 percent, past the ${level === 'urgent' ? 'urgent' : 'checkpoint'} mark for S3. Checkpoint done. /compact would pass the guard: no work since the checkpoint.`,
      level,
    );
    const v = statusView(t, usage(46), S3, level, {
      allow: true,
      rule: 'fresh',
      marker: 'm',
      maxAgeMin: 480,
      installed: true,
    });
    assert.match(v.tooltip, /\$\(check\) Checkpoint done/);
    assert.doesNotMatch(v.tooltip, /Checkpoint proposed|checkpoint now\./);
  }
  // The agent's figure comes from a turn after the checkpoint (more than its own turn later, or of a turn
  // the transcript shows began after the marker): the conversation went on, and a checkpoint is due again
  // although the guard would still pass.
  const idleSince = (at: string, began: string | null = null) =>
    statusLabel(t, usage(46, { at }), S3, 'urgent', {
      allow: true,
      rule: 'idle',
      marker: 'm',
      maxAgeMin: 480,
      installed: true,
      markerMtime: Date.parse('2026-12-01T00:00:00Z'),
      turnAfter: { began: began === null ? null : Date.parse(began), read: Date.parse('2026-12-01T00:05:00Z') },
    });
  assert.match(
    idleSince('2026-12-01T00:02:01Z'),
    /past the urgent mark for S3\. Checkpoint now\. \/compact would pass the guard/,
  );
  assert.match(idleSince('2026-12-01T00:01:59Z'), /Checkpoint done\./, "the checkpoint's own turn");
  assert.match(idleSince('2026-12-01T00:01:00Z', '2026-12-01T00:00:30Z'), /Checkpoint now\./, 'a turn after it');
  // Work since an old checkpoint: the guard stops /compact, and the label asks for a checkpoint again.
  const stale = statusLabel(t, usage(46), S3, 'propose', {
    allow: false,
    rule: 'stale',
    marker: 'm',
    maxAgeMin: 480,
    installed: true,
  });
  assert.match(stale, /Checkpoint proposed\./);
  // Nothing-to-preserve saves nothing: the guard passes, but no checkpoint is said to be done.
  const optOut = statusLabel(t, usage(46), S3, 'propose', {
    allow: true,
    rule: 'opt-out',
    marker: 'm',
    maxAgeMin: 480,
    installed: true,
  });
  assert.match(optOut, /Checkpoint proposed\. \/compact would pass the guard: marked nothing-to-preserve\./);
});

test('status item: past a mark with the checkpoint done, no warning colour and the check icon, as its words say; the colour comes back once the checkpoint no longer covers the session', () => {
  const done = (o: Partial<GuardView> = {}): GuardView => ({
    allow: true,
    rule: 'fresh',
    marker: '.claude/.checkpoint-ready.abc-123',
    maxAgeMin: 480,
    installed: true,
    markerMtime: Date.parse('2026-12-01T00:00:00Z'),
    ...o,
  });
  for (const level of ['propose', 'urgent'] as const) {
    const v = statusView(t, usage(46), S3, level, done());
    assert.equal(v.text, '$(check) 46%', level);
    assert.equal(v.background, undefined, `${level}: nothing left to act on, no colour`);
    assert.match(v.label, /Checkpoint done\./);
    assert.match(v.tooltip, /\$\(check\) Checkpoint done/);
    assert.doesNotMatch(v.tooltip, /\$\((?:warning|error)\)/);
    // The same after an idle allow (no work since the checkpoint); the figure's window unknown too.
    assert.equal(statusView(t, usage(null), S3, level, done({ rule: 'idle' })).text, '$(check) 92k tokens');
  }
  const colour = { propose: 'statusBarItem.warningBackground', urgent: 'statusBarItem.errorBackground' } as const;
  const icon = { propose: '$(warning) 46%', urgent: '$(error) 46%' } as const;
  for (const level of ['propose', 'urgent'] as const) {
    // Not done: the conversation went on after the checkpoint, a state file changed since, the guard stops
    // /compact, nothing-to-preserve (saves nothing), or no guard verdict known.
    const notDone: Array<[string, GuardView | undefined, ContextUsage]> = [
      ['a turn after it', done(), usage(46, { at: '2026-12-01T00:05:00Z' })],
      ['a file changed since', done({ changed: ['docs/state/STATE.md'] }), usage(46)],
      ['stopped', done({ allow: false, rule: 'stale' }), usage(46)],
      ['nothing-to-preserve', done({ rule: 'opt-out' }), usage(46)],
      ['no verdict', undefined, usage(46)],
    ];
    for (const [why, guard, u] of notDone) {
      const v = statusView(t, u, S3, level, guard);
      assert.equal(v.text, icon[level], `${level}, ${why}`);
      assert.equal(v.background, colour[level], `${level}, ${why}`);
      assert.doesNotMatch(v.label, /Checkpoint done/, `${level}, ${why}`);
    }
  }
  // Under the first mark a checkpoint changes nothing the item shows.
  const ok = statusView(t, usage(10), S3, 'ok', done());
  assert.equal(ok.text, '$(pulse) 10%');
  assert.equal(ok.background, undefined);
});

test('status item for a session with no figure yet (one /clear just started): `--` and what is known, no colour, the actions', () => {
  const session = { agent: 'claude' as const, sessionId: 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f' };
  const guard: GuardView = { allow: false, rule: 'no-marker', marker: null, maxAgeMin: 480, installed: true };
  const v = noFigureView(t, session, S3, guard);
  assert.equal(v.text, '$(pulse) --');
  assert.equal(v.background, undefined);
  assert.equal(
    v.label,
    'Session Ledger: context not known yet: the agent has reported no figure in this session. /compact would be stopped by the guard: no checkpoint in this session.',
  );
  assert.match(v.tooltip, /Agent: Claude Code · session `c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f`/);
  assert.match(v.tooltip, /Used: no figure yet/);
  assert.match(v.tooltip, /Thresholds \(S3\): 15% \/ 40%/);
  assert.match(v.tooltip, /\(command:sessionLedger\.checkpointNow\)/);
  const restricted = noFigureView(t, session, S3, guard, false);
  assert.match(restricted.label, /Restricted Mode/);
  assert.doesNotMatch(restricted.tooltip, /command:sessionLedger\.checkpointNow/);
  assert.doesNotMatch(v.label, /[*`$[\]<>]|command:/, 'the label is plain words');
  // No figure may be because a local status line keeps the relay from running: said here too.
  const hidden = noFigureView(t, session, S3, {
    ...guard,
    relayHidden: { file: '.claude/settings.json', by: '.claude/settings.local.json' },
  });
  assert.match(hidden.tooltip, /\$\(warning\) statusLine: the relay in `\.claude\/settings\.json` does not run/);
  assert.doesNotMatch(v.tooltip, /does not run/);
});

test('status label: no Markdown, icon names, command links or transcript text in it', () => {
  const hostile = usage(46, { model: '**bold** $(alert) [x](command:evil)', sessionId: '`id`', at: '<img src=x>' });
  for (const level of ['ok', 'propose', 'urgent'] as const) {
    const v = statusView(
      t,
      hostile,
      S3,
      level,
      { allow: true, rule: 'fresh', marker: 'm', maxAgeMin: 480, installed: true },
      { count: 3, advice: compactionsAdviceOf(['S0']) },
    );
    assert.doesNotMatch(v.label, /[*`$[\]<>]|\(\w*\)|command:/, v.label);
    assert.ok(v.label.startsWith('Session Ledger: context 46 percent'), v.label);
  }
});

test('status text: the level shows in the icon, not only in the background colour', () => {
  const icons = (['ok', 'propose', 'urgent'] as const).map((level) => statusView(t, usage(46), S3, level).text);
  assert.deepEqual(icons, ['$(pulse) 46%', '$(warning) 46%', '$(error) 46%']);
  assert.equal(statusView(t, usage(null), S3, 'urgent').text, '$(error) 92k tokens');
});

test('plain text: emphasis, code-span backticks, comments and link targets dropped; the words kept', () => {
  assert.equal(
    plainText('**Status:** add `renew(db, __id__)` to [loans](src/loans.ts) <!-- note -->'),
    'Status: add renew(db, __id__) to loans',
  );
  assert.equal(plainText('`__init__.py` and __bold__'), '__init__.py and bold');
  assert.equal(plainText('a stray ` tick'), 'a stray tick');
  assert.equal(
    itemLabel({ text: 'add `renew(db, __id__)`', line: 1, flags: [] }),
    'add ‘renew(db, __id__)’',
    'the visible label keeps its code span whole, in quotes',
  );
  // The next action's row is cleaned the same way.
  assert.equal(
    lineLabel('**Apply the datum offset** — subtract `Station.datumCm` in [ingest](src/ingest.ts)'),
    'Apply the datum offset — subtract ‘Station.datumCm’ in ingest',
  );
  assert.equal(
    spoken(['S3 handoff', 'docs/state/STATE.md, line 4', 'Fix: do it.']),
    'S3 handoff. docs/state/STATE.md, line 4. Fix: do it.',
  );
  assert.equal(spoken(['Done.', undefined, '']), 'Done.');
});

test('tree: an item is named by its words, its flags as words and its place; never raw flags', () => {
  const item: Item = {
    text: '**Now ▶** add `renew()` [x](y)',
    line: 12,
    flags: ['field:now', 'unconfirmed', 'risk:H', 'hasCommand'],
  };
  const name = itemName(t, item, 'docs/state/STATE.md');
  assert.equal(
    name,
    'Now ▶ add renew() x (UNCONFIRMED · risk H). docs/state/STATE.md, line 12. Validate this after /clear before relying on it.',
  );
  assert.doesNotMatch(name, /Flags|field:|hasCommand|[*`]/);
});

test('tree: a finding row says its severity first, then system, check, message, place and fix, as plain text', () => {
  const check = (o: Partial<Check>): Check => ({
    id: 'compaction',
    system: 'S4',
    severity: 'warn',
    status: 'warn',
    message: '2 `## Current Feature` blocks',
    messageId: '',
    args: [],
    hint: 'Run `checkpoint.py --apply`.',
    ...o,
  });
  assert.equal(
    findingName(t, check({}), '.agents/STATE.md', 19),
    'Warning: S4 compaction: 2 ## Current Feature blocks. .agents/STATE.md, line 19. Fix: Run checkpoint.py --apply.',
  );
  assert.match(
    findingName(
      t,
      check({ severity: 'block', status: 'fail', system: 'S3', id: 'handoff-block' }),
      'docs/state/STATE.md',
      1,
    ),
    /^Blocking: S3 handoff-block: /,
  );
  assert.match(findingName(t, check({ severity: 'info', status: 'warn' }), 'a.md', 1), /^Info: /);
  assert.match(
    findingName(t, check({ severity: 'block', status: 'fail', system: 'S1', id: 'attestation' }), 'memory/x.md', 1),
    /^Blocking: S1 attestation \(TAMPERED\): /,
  );
});
