/**
 * A time a user reads is their clock time, with how long ago where the text is drawn again as time
 * passes (the status bar's tooltip): never an ISO string in UTC (`2026-12-06T14:03:22.123Z`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ContextUsage } from '../../src/core/model/model';
import { localClock, localTime, spanText } from '../../src/core/model/time';
import { evaluate } from '../../src/core/report/evaluate';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { SHARED_MARKER_REL } from '../../src/core/checkpoint/marker';
import { statusView } from '../../src/extension/pure/status-text';
import { agoText, whenText } from '../../src/extension/pure/time-text';
import { preCompact } from './checkpoint-fixtures';
import { filesUnder, fixtureCopy, gitInit, jaT, enT } from './helpers';

const t = enT;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const two = (n: number) => String(n).padStart(2, '0');

test("the status bar's tooltip says when the figure was taken as the local clock time and how long ago", () => {
  const at = Date.UTC(2026, 11, 6, 14, 3, 22, 123);
  const u = {
    agent: 'claude',
    sessionId: 's1',
    model: 'claude-sonnet-4',
    usedTokens: 50_000,
    windowTokens: 200_000,
    percent: 25,
    source: 'transcript',
    at: new Date(at).toISOString(),
  } as unknown as ContextUsage;
  const profile = { profile: 'S3', propose: 15, urgent: 40 };
  const tip = statusView(t, u, profile, 'ok', undefined, undefined, at + 5 * 60_000).tooltip;
  assert.doesNotMatch(tip, ISO, tip);
  const d = new Date(at);
  // Markdown escapes the colon and the brackets; the reader sees `15:03 (5 min ago)` in their zone.
  assert.ok(tip.includes(`${two(d.getHours())}\\:${two(d.getMinutes())} \\(5 min ago\\)`), tip);
  // A day later the date is said too.
  const later = statusView(t, u, profile, 'ok', undefined, undefined, at + 30 * 3600_000).tooltip;
  assert.ok(later.includes(`${localTime(at).slice(0, 10).replace(/-/g, '\\-')}`), later);
  assert.ok(later.includes('30 h ago'), later);
  // A time that is none says nothing rather than "Invalid Date".
  const bad = statusView(t, { ...u, at: 'yesterday-ish' }, profile, 'ok', undefined, undefined, at).tooltip;
  assert.doesNotMatch(bad, /Invalid|NaN|yesterday/, bad);
});

test('how long ago reads in minutes, hours and days, in every language', () => {
  assert.equal(agoText(t, 20_000), 'just now');
  assert.equal(agoText(t, 42 * 60_000), '42 min ago');
  assert.equal(agoText(t, 5 * 3600_000), '5 h ago');
  assert.equal(agoText(t, 50 * 3600_000), '2 days ago');
  assert.equal(agoText(jaT, 5 * 3600_000), '5 時間前');
  const now = Date.UTC(2026, 11, 6, 12, 0);
  assert.equal(whenText(t, now - 60_000, now), `${localClock(now - 60_000, now)} (1 min ago)`);
  assert.equal(localTime(NaN), '(unknown time)');
  assert.deepEqual(
    [spanText(20_000).text, spanText(42 * 60_000).text, spanText(3 * 3600_000).text],
    ['less than a minute', '42 min', '3 h'],
  );
});

test("the fresh check says the work's local time and how much older the file is, not an ISO time", async () => {
  const dir = fixtureCopy('s3/good');
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'src/a.ts'), 'export const a = 1;\n');
  // Committed five hours ago (the commit is dated by its newest file).
  const committed = (Date.now() - 5 * 3600_000) / 1000;
  for (const f of filesUnder(dir)) utimesSync(f, committed, committed);
  gitInit(dir);
  // The state file written three hours before an uncommitted change.
  const work = Date.now() - 60_000;
  writeFileSync(path.join(dir, 'src/a.ts'), 'export const a = 2;\n');
  utimesSync(path.join(dir, 'src/a.ts'), work / 1000, work / 1000);
  const old = (work - 3 * 3600_000) / 1000;
  utimesSync(path.join(dir, 'docs/state/STATE.md'), old, old);
  const r = await evaluate(dir);
  const fresh = r.systems.find((s) => s.id === 'S3')?.checks.find((c) => c.id === 'fresh');
  assert.equal(fresh?.status, 'warn', fresh?.message);
  assert.doesNotMatch(fresh.message, ISO, fresh.message);
  assert.equal(
    fresh.message,
    `Out of date: docs/state/STATE.md is older than uncommitted changes (written 3 h before it; the work is from ${localTime(work)}).`,
  );
});

test('the guard names a marker written before the session, or dated in the future, by its local time', async () => {
  const dir = fixtureCopy('s3/good');
  gitInit(dir);
  mkdirSync(path.join(dir, '.claude'), { recursive: true });
  const marker = path.join(dir, SHARED_MARKER_REL);
  writeFileSync(marker, '');
  const future = Date.UTC(2030, 0, 1, 9, 30);
  utimesSync(marker, future / 1000, future / 1000);
  const d = await preCompactGuard(preCompact(dir, { sessionId: null }), { root: dir, log: false });
  assert.equal(d.allow, false, d.reason);
  assert.doesNotMatch(d.reason, ISO, d.reason);
  assert.ok(d.reason.includes(`dated in the future (${localTime(future)})`), d.reason);
});
