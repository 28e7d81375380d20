/**
 * A figure taken before the session window (30 min, SESSION_LEDGER_SESSION_WINDOW_MIN: the window in which
 * the checkpoint counts a session as running) is old: the status bar says its age. A session that has
 * written nothing within the window is not the one running: no checkpoint is proposed or urged for it (no
 * colour, no "Checkpoint proposed"). The rule is the core's (`notRunning`, `figureAge`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figureAge, notRunning } from '../../src/core/model/time';
import { sessionWindowMinutes } from '../../src/core/context/sessions';
import { statusView } from '../../src/extension/pure/status-text';
import { contextUsage, enT, jaT, koT } from './helpers';

const MIN = 60_000;
const NOW = Date.parse('2026-12-07T20:00:00Z');
const SIX_DAYS = NOW - 6 * 24 * 60 * MIN;
const usage = (at: number) => contextUsage({ at: new Date(at).toISOString() });
const S3 = { profile: 'S3', propose: 15, urgent: 40 };

test("the core's rule: older than the session window is old; a transcript written within it still runs", () => {
  const w = sessionWindowMinutes({});
  assert.equal(w, 30);
  assert.equal(sessionWindowMinutes({ SESSION_LEDGER_SESSION_WINDOW_MIN: '90' }), 90);
  assert.equal(notRunning(NOW - 29 * MIN, NOW, w), false);
  assert.equal(notRunning(NOW - 31 * MIN, NOW, w), true);
  assert.equal(notRunning(NaN, NOW, w), false);
  assert.equal(figureAge(new Date(NOW - 5 * MIN).toISOString(), NOW, NOW, w), null);
  assert.equal(figureAge(null, SIX_DAYS, NOW, w), null, 'a figure of no known time is not said to be old');
  assert.deepEqual(figureAge(new Date(SIX_DAYS).toISOString(), SIX_DAYS + MIN, NOW, w), {
    at: SIX_DAYS,
    running: false,
  });
  // Its transcript written a minute ago (a turn without a figure yet): the session still runs.
  assert.deepEqual(figureAge(new Date(SIX_DAYS).toISOString(), NOW - MIN, NOW, w), { at: SIX_DAYS, running: true });
  assert.equal(figureAge(new Date(NOW - 60 * MIN).toISOString(), NOW - 60 * MIN, NOW, 90), null);
});

test('a six-day-old figure of a session that is not running: its age said, no checkpoint proposed, no colour', () => {
  const u = usage(SIX_DAYS);
  const age = figureAge(u.at, SIX_DAYS, NOW, 30);
  assert.ok(age && !age.running);
  const before = statusView(enT, u, S3, 'urgent', undefined, undefined, NOW);
  assert.equal(before.background, 'statusBarItem.errorBackground', 'without the age: urged');
  const v = statusView(enT, u, S3, 'urgent', undefined, undefined, NOW, true, age);
  assert.equal(v.background, undefined);
  assert.ok(!v.text.includes('error') && !v.text.includes('warning'), v.text);
  assert.equal(
    v.label,
    'Session Ledger: context 46 percent. The figure is from 6 days ago: its session has written nothing since, so it is not the one running and no checkpoint is proposed for it.',
  );
  assert.doesNotMatch(v.tooltip, /Checkpoint proposed|checkpoint now/);
  assert.match(v.tooltip, /\$\(history\) The figure is from 6 days ago: its session has written nothing since/);
  for (const t of [jaT, koT]) {
    const l = statusView(t, u, S3, 'urgent', undefined, undefined, NOW, true, age).label;
    assert.doesNotMatch(l, /The figure|not running/, l);
  }
  assert.match(
    statusView(jaT, u, S3, 'urgent', undefined, undefined, NOW, true, age).label,
    /この値は 6 日前のものです/,
  );
  assert.match(
    statusView(koT, u, S3, 'urgent', undefined, undefined, NOW, true, age).label,
    /이 값은 6일 전의 것입니다/,
  );
});

test('an old figure of a session still running (its transcript just written): its age said, the mark still proposes', () => {
  const u = usage(SIX_DAYS);
  const age = figureAge(u.at, NOW - MIN, NOW, 30);
  assert.ok(age?.running);
  const v = statusView(enT, u, S3, 'propose', undefined, undefined, NOW, true, age);
  assert.equal(v.background, 'statusBarItem.warningBackground');
  assert.match(
    v.label,
    /^Session Ledger: context 46 percent, past the checkpoint mark for S3\. Checkpoint proposed\. The figure is from 6 days ago: the agent has written no newer one\.$/,
  );
  assert.match(v.tooltip, /Checkpoint proposed\./);
  // A fresh figure: nothing about its age.
  const fresh = statusView(enT, usage(NOW - MIN), S3, 'propose', undefined, undefined, NOW, true, null);
  assert.doesNotMatch(fresh.label, /The figure is from/);
});
