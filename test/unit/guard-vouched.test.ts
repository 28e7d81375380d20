// Once a checkpoint vouched for a system's files and none was written since, the PreCompact guard
// keeps the checkpoint's word on the skeleton check (checkpoint refuses on a skeleton): those files
// are not parsed again. A file written after the checkpoint's own time is checked, even under a
// marker touched since. Real files, the real CLI and the installed hook script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { preCompactGuard } from '../../src/core/hooks/guard';
import { markerRel, parseMarker } from '../../src/core/checkpoint/marker';
import { evaluateSystems } from '../../src/core/report/evaluate';
import { HOOK_SYSTEMS } from '../../src/core/systems/hooks';
import { cli, filesUnder, gitInit, HOOK_SCRIPT, REPO, workspace } from './helpers';
import { preCompact, SID } from './checkpoint-fixtures';

const STATE = 'docs/state/STATE.md';
const SKELETON = '# STATE\n\n## Handoff\nNow ▶ \n';

/** The demo workspace (five systems), every file dated ten minutes back, checkpointed for SID now. */
function checkpointed(): string {
  const dir = workspace({});
  cpSync(path.join(REPO, 'examples/demo-workspace'), dir, { recursive: true });
  gitInit(dir);
  const old = (Date.now() - 10 * 60_000) / 1000;
  for (const f of filesUnder(dir)) if (!f.includes(`${path.sep}.git${path.sep}`)) utimesSync(f, old, old);
  const r = cli(['checkpoint', '--root', dir, '--session', SID, '--confirm', 'feedback-stored,last-request']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  cpSync(HOOK_SCRIPT, path.join(dir, '.claude/hooks/session-ledger.cjs'));
  return dir;
}

/** The guard through the installed hook script: its exit code and stderr. */
function viaScript(dir: string): { code: number; said: string } {
  const r = spawnSync(process.execPath, ['.claude/hooks/session-ledger.cjs', 'hook', 'pre-compact'], {
    cwd: dir,
    input: preCompact(dir),
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, said: r.stderr };
}

/** Whether the document at `rel` of the report was parsed (its text is a getter until first asked for). */
function parsed(docs: ReadonlyArray<{ relPath: string }>, rel: string): boolean {
  const d = docs.find((x) => x.relPath === rel);
  assert.ok(d, rel);
  return typeof Object.getOwnPropertyDescriptor(d, 'text')?.get !== 'function';
}

test('after a checkpoint, a system whose files it vouched for and none written since is not checked for a skeleton again: its files stay unparsed', async () => {
  const dir = checkpointed();
  const marker = parseMarker(readFileSync(path.join(dir, markerRel(SID)), 'utf8'));
  const paths = new Set(marker.hashes.map((h) => h.path));
  assert.ok(paths.has(STATE));
  const at = Date.parse(marker.at ?? '');
  const skeleton = { noGit: true, rules: 'skeleton' as const };
  const kept = await evaluateSystems(HOOK_SYSTEMS, dir, { ...skeleton, vouched: { paths, mtime: at } });
  const s3 = kept.systems.find((s) => s.id === 'S3');
  assert.ok(s3);
  assert.equal(parsed(s3.docs, STATE), false);
  // A file written after the checkpoint's time is checked again (and so parsed).
  utimesSync(path.join(dir, STATE), new Date(at + 1000), new Date(at + 1000));
  const again = await evaluateSystems(HOOK_SYSTEMS, dir, { ...skeleton, vouched: { paths, mtime: at } });
  assert.equal(parsed(again.systems.find((s) => s.id === 'S3')?.docs ?? [], STATE), true);
  // So is one the marker does not vouch for.
  const none = await evaluateSystems(HOOK_SYSTEMS, dir, { ...skeleton, vouched: { paths: new Set(), mtime: at } });
  assert.equal(parsed(none.systems.find((s) => s.id === 'S3')?.docs ?? [], STATE), true);
  // The guard lets /compact through on it, in this process and through the hook script.
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.equal(d.allow, true, d.log);
  assert.equal(viaScript(dir).code, 0);
});

test('a state file emptied to a skeleton after the checkpoint, under a marker touched since: /compact is stopped (the checkpoint time in the marker counts, not the file time)', async () => {
  const dir = checkpointed();
  const p = path.join(dir, STATE);
  writeFileSync(p, SKELETON);
  // The skeleton is written after the checkpoint's time, then the marker is touched after it.
  const marker = path.join(dir, markerRel(SID));
  await new Promise((resolve) => setTimeout(resolve, 60));
  const now = Date.now();
  utimesSync(p, new Date(now - 40), new Date(now - 40));
  utimesSync(marker, new Date(now - 20), new Date(now - 20));
  assert.ok(Date.parse(parseMarker(readFileSync(marker, 'utf8')).at ?? '') < now - 40);
  const d = await preCompactGuard(preCompact(dir), { root: dir, log: false });
  assert.deepEqual([d.allow, d.rule], [false, 'skeleton'], d.log);
  const s = viaScript(dir);
  assert.equal(s.code, 2, s.said);
  assert.match(s.said, /docs\/state\/STATE\.md is still an empty skeleton/);
});
