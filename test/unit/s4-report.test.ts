/**
 * S4's closing report and its compaction preview, as its seed has them: the report names the
 * checkpoint path, the state blocks pruned, the sections preserved, the research notes archived, the
 * validation result and the remaining risks, in Japanese; `compact-state` without `--apply` writes
 * its preview to `.agents/logs/state-compaction-preview-*.md` (atomic, never over an existing file,
 * never through a link) and leaves the state untouched. Real files, real git, the built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkpoint } from '../../src/core/checkpoint/checkpoint';
import { planCompactState, previewRel, writeCompactionPreview } from '../../src/core/systems/s4/compact-state';
import { WriteRefused } from '../../src/core/files/atomic';
import { CONFIRMED, emptyClaudeHome, run, SID, S2_GO_SIGNAL } from './checkpoint-fixtures';
import { fixtureCopy, gitInit, workspace } from './helpers';

test("S4 closing: the seed's report in Japanese (checkpoint path, blocks pruned, sections preserved, research notes archived, validation, risks), then the go-signal line", async () => {
  const dir = fixtureCopy('s4/good');
  mkdirSync(path.join(dir, '.agents/docs/research/archive'), { recursive: true });
  writeFileSync(path.join(dir, '.agents/docs/research/archive/old-idea.md'), '# old\n');
  writeFileSync(path.join(dir, '.agents/docs/research/live-idea.md'), '# live\n');
  gitInit(dir);
  const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(r.kind, 'written', r.lines.join('\n'));
  const lines = r.closing[0].lines;
  assert.equal(lines.length, 7, lines.join('\n'));
  assert.equal(lines[0], 'チェックポイント: .agents/checkpoints/2026-03-05-171200.md');
  assert.equal(lines[1], '刈り込む状態ブロック: 0 件（各種類の最新ブロックのみ）');
  assert.match(lines[2], /^保持したセクション: \d+ 件（Main Agent、Repository Identity、Progress Tracker/);
  assert.equal(lines[3], 'アーカイブした研究ノート: 1 件（.agents/docs/research/archive/、アクティブ 1 件）');
  assert.match(lines[4], /^検証結果: 構造 OK（# Agent State と ## Progress Tracker が各 1 件）、ラベル WORKING$/);
  assert.match(lines[5], /^残りのリスク: /);
  assert.equal(lines[6], S2_GO_SIGNAL);
  assert.equal(r.lines[r.lines.length - 1], S2_GO_SIGNAL);
});

test('S4 closing: older blocks still in the state are named as the ones the compact phase prunes; risks as recorded', async () => {
  const dir = fixtureCopy('s4/good');
  const file = path.join(dir, '.agents/STATE.md');
  const text = readFileSync(file, 'utf8');
  const older =
    '\n## Current Feature: old-import\n\n### Next Steps\n\n- Remove `internal/importer/v1.go` after the migration.\n\n---\n';
  // the older block goes before the newest of its kind
  const at = text.indexOf('## Current Feature');
  writeFileSync(file, text.slice(0, at) + older.trimStart() + '\n' + text.slice(at));
  gitInit(dir);
  const r = await checkpoint(dir, { sessionId: SID, confirmed: CONFIRMED, claudeHome: emptyClaudeHome() });
  assert.equal(r.kind, 'written', r.lines.join('\n'));
  assert.match(r.closing[0].lines[1], /^刈り込む状態ブロック: 1 件（Current Feature: old-import）/);
  assert.match(r.closing[0].lines[4], /ラベル PARTIAL、警告 \d+ 件/);
});

test('compact-state without --apply writes its preview under .agents/logs/; the state is untouched; a planted link or an existing preview refuses', async () => {
  const dir = fixtureCopy('s4/good');
  const file = path.join(dir, '.agents/STATE.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('## Current Feature');
  const two = text.slice(0, at) + '## Current Feature: old-import\n\n- Done.\n\n' + text.slice(at);
  writeFileSync(file, two);
  const p = run(['compact-state', '--root', dir]);
  assert.equal(p.code, 0, p.stderr);
  const logs = readdirSync(path.join(dir, '.agents/logs'));
  assert.equal(logs.length, 1);
  assert.match(logs[0], /^state-compaction-preview-\d{8}-\d{6}\.md$/);
  const plan = await planCompactState(dir);
  assert.ok(plan);
  assert.equal(readFileSync(path.join(dir, '.agents/logs', logs[0]), 'utf8'), plan.after);
  assert.match(p.stdout, new RegExp(`preview written: \\.agents/logs/${logs[0].replace(/\./g, '\\.')}`));
  assert.equal(readFileSync(file, 'utf8'), two, 'the state itself is untouched');
  // a second preview one second later: its own file
  await new Promise((res) => setTimeout(res, 1100));
  const j = JSON.parse(run(['compact-state', '--root', dir, '--json']).stdout);
  assert.match(j.preview, /^\.agents\/logs\/state-compaction-preview-/);

  // the same second again: refused, the first preview kept
  const now = Date.UTC(2026, 11, 3, 13, 0, 0);
  const rel = await writeCompactionPreview(dir, plan, now);
  assert.equal(rel, previewRel(now));
  await assert.rejects(
    writeCompactionPreview(dir, plan, now),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'exists',
  );

  // .agents/logs planted as a link out of the workspace: nothing written there
  const outside = workspace();
  const linked = fixtureCopy('s4/good');
  writeFileSync(path.join(linked, '.agents/STATE.md'), two);
  symlinkSync(outside, path.join(linked, '.agents/logs'));
  const l = run(['compact-state', '--root', linked]);
  assert.equal(l.code, 1);
  assert.match(l.stderr, /the preview was not written: .*symbolic link/);
  assert.deepEqual(readdirSync(outside), []);
});
