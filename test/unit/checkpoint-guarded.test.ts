/**
 * What a written checkpoint says of its marker rests on the guard (core `guardRuns`): where the PreCompact
 * guard runs, the marker lets /compact through; where it is not installed, or Claude Code's settings keep it
 * from running (the status bar's "/compact is not guarded"), nothing stops /compact with or without the
 * marker, and the result says so. Real files: a temp HOME, Claude Code's folder and the managed folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { guardRuns } from '../../src/core/hooks/guard-runs';
import { outcomeMessage } from '../../src/extension/pure/checkpoint-text';
import { quoted } from '../../src/extension/pure/findings';
import { cli, enT, HOOK_SCRIPT, jaT, koT, write } from './helpers';
import { demoWorld, SID, writtenIn } from './checkpoint-fixtures';

const UNGUARDED = 'Either is safe: the files are checked. No guard here: nothing stops /compact.';
const GUARDED = 'Either is safe: the files are checked and the marker lets /compact through.';

test('no guard hook installed: the result says nothing stops /compact, not that the marker lets it through', async () => {
  const w = demoWorld();
  assert.equal(await guardRuns(w.dir, { env: w.env, claudeHome: w.claudeHome }), false);
  const o = await writtenIn(w);
  assert.equal(o.guarded, false);
  const full = quoted(outcomeMessage(o, enT).full);
  assert.ok(full.includes(UNGUARDED), full);
  assert.ok(!full.includes('the marker lets /compact through'), full);
  // The CLI's lines say it alike.
  assert.ok(o.lines.join('\n').includes(UNGUARDED), o.lines.join('\n'));
  // In Japanese and Korean, in words of their own.
  for (const t of [jaT, koT]) {
    const said = quoted(outcomeMessage(o, t).full);
    assert.ok(!said.includes('No guard here'), said);
    assert.match(said, /\/compact/);
  }
  assert.match(quoted(outcomeMessage(o, jaT).full), /ここにはガードがないため、何も \/compact を止めません/);
  assert.match(quoted(outcomeMessage(o, koT).full), /여기에는 가드가 없어 아무것도 \/compact를 막지 않습니다/);
  // The notification, in short, alike.
  assert.match(outcomeMessage(o, enT).text, / No guard here: nothing stops \/compact\. /);
  assert.match(outcomeMessage(o, jaT).text, /ここにはガードがないため、何も \/compact を止めません。/);
  assert.match(outcomeMessage(o, koT).text, /여기에는 가드가 없어 아무것도 \/compact를 막지 않습니다\./);
});

test('the guard installed: the marker lets /compact through; Claude Code told to run no hooks: not guarded again', async () => {
  const w = demoWorld();
  const r = cli(['hooks', 'install', '--root', w.dir, '--cli-bundle', HOOK_SCRIPT], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await guardRuns(w.dir, { agent: 'claude', env: w.env, claudeHome: w.claudeHome }), true);
  const o = await writtenIn(w);
  assert.equal(o.guarded, true);
  const full = quoted(outcomeMessage(o, enT).full);
  assert.ok(full.includes(GUARDED), full);
  assert.ok(!full.includes(UNGUARDED), full);
  const text = outcomeMessage(o, enT).text;
  assert.match(text, / The marker lets \/compact through\. /, text);
  assert.ok(!text.includes('No guard here'), text);
  assert.match(outcomeMessage(o, jaT).text, /マーカーが \/compact を通します。/);
  assert.match(outcomeMessage(o, koT).text, /마커가 \/compact를 통과시킵니다\./);
  // disableAllHooks in the file Claude Code reads last: the installed guard does not run.
  write(w.dir, '.claude/settings.local.json', '{ "disableAllHooks": true }\n');
  assert.equal(await guardRuns(w.dir, { agent: 'claude', env: w.env, claudeHome: w.claudeHome }), false);
  const off = await writtenIn(w);
  assert.equal(off.guarded, false);
  assert.ok(quoted(outcomeMessage(off, enT).full).includes(UNGUARDED));
  assert.match(outcomeMessage(off, enT).text, / No guard here: nothing stops \/compact\. /);
});

test('nothing to preserve, no guard: the marker is said not to be what stops /compact', async () => {
  const w = demoWorld();
  const o = await checkpoint(w.dir, {
    sessionId: SID,
    nothingToPreserve: true,
    env: w.env,
    claudeHome: w.claudeHome,
  });
  assert.equal(o.kind, 'nothing-to-preserve', o.lines.join('\n'));
  assert.equal(
    o.said?.text,
    'Marker written (nothing to preserve). Nothing stops /compact here, marker or not: it is not guarded. With the guard hook, the marker lets it through.',
  );
  assert.ok(!o.lines.join('\n').includes('the PreCompact guard lets /compact through'), o.lines.join('\n'));
});
