/**
 * The tree's tooltips show ledger text as its labels and the Problems panel do: each code span in quotes
 * (‘npm test’), never its backticks, which a plain-text tooltip would show as written. The rest of the
 * text is as written, and plain: nothing of it is rendered or runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  docTooltip,
  itemTooltip,
  nextTooltip,
  problemTooltip,
  sectionTooltip,
  shownSections,
  systemTooltip,
} from '../../src/extension/pure/tree-text';
import { enT, fixtureCopy, rewrite, systemIn } from './helpers';

test('every tree tooltip that shows ledger text says its code spans in quotes, without backticks', async () => {
  const dir = fixtureCopy('s3/good');
  rewrite(dir, 'docs/state/STATE.md', (x) =>
    x
      .replace('## Log', '## Log of `src/limiter`')
      .replace(
        '- **Gates:** checks green',
        '- **Gates:** ``npm test`` and `` `x` `` green, [plan](command:x) <b>b</b>',
      ),
  );
  const s = await systemIn(dir, 'S3', { noGit: true });
  const tips: string[] = [systemTooltip(enT, s)];
  for (const d of s.docs) {
    tips.push(docTooltip(enT, s, d.relPath, d));
    for (const sec of shownSections(d)) {
      tips.push(sectionTooltip(enT, sec, d.relPath));
      for (const it of sec.items) tips.push(itemTooltip(enT, it, d.relPath));
    }
  }
  tips.push(nextTooltip(enT, s.next ?? '', s.home, 11));
  for (const c of s.checks) tips.push(problemTooltip(enT, c));
  // No backtick but one a code span holds (shown inside its quotes, as the label shows it).
  for (const tip of tips) assert.doesNotMatch(tip.replace(/‘[^’]*’/g, ''), /`/, tip);

  const item = (start: string) => tips.find((x) => x.startsWith(start)) ?? '';
  // The item's text as written, its code spans in quotes.
  assert.match(item('- **Branch') || item('**Branch'), /\*\*Branch \/ HEAD:\*\* ‘main’ @ ‘\(no hash recorded\)’/);
  assert.ok(
    tips.some(
      (x) =>
        x.split('\n')[0] === '**Gates:** ‘npm test’ and ‘`x`’ green, [plan](command:x) <b>b</b>, tests 42/42, CI green',
    ),
    'a double-backtick span, one holding a backtick; a link and HTML stay plain text',
  );
  assert.equal(
    nextTooltip(enT, s.next ?? '', s.home, 11),
    'Next action: wire ‘RedisStore.take()’ into ‘src/limiter/middleware.ts’ per the plan in the 2026-03-04 Log entry below\ndocs/state/STATE.md:11',
  );
  assert.ok(
    tips.some((x) => x.startsWith('Log of ‘src/limiter’\n')),
    'the section title',
  );
});
