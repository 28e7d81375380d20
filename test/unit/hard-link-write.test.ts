/**
 * compact-state and rotate-log never change a state or log file with more than one hard link: its
 * other name may be any file on the disk (a file outside the workspace, another user's notes), so
 * it is refused as a link out of the workspace is, with a clear message, and nothing is written
 * (no preview, no archive, the outside file's bytes as they were). A symbolic link out of the
 * workspace is refused the same way, already when the preview is planned.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { applyCompactState, planCompactState } from '../../src/core/systems/s4/compact-state';
import { applyRotateLog, planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { errorText } from '../../src/extension/pure/error-text';
import { workspace } from './helpers';
import { run } from './checkpoint-fixtures';

const block = (kind: string, name: string) =>
  `\n## ${kind}: ${name}\n<!-- orchestra:block-id: ${name} -->\n\n### Next Steps\n\n- ${name} next.\n\n---\n`;
/** S4 state with two Current Project blocks: compact-state would remove the older one. */
const S4 =
  '# Agent State\n\n## Progress Tracker\n\n- [ ] step\n\n---\n' +
  block('Current Project', 'ledger-v1') +
  block('Current Project', 'ledger-v2');

const entry = (date: string, title: string, n: number) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
/** S3 state over its 150-line budget: rotate-log would move the two oldest entries. */
const S3 =
  '# STATE: live project state\n\n## Handoff: read this first\n\n- **Now ▶** wire the Stop hook\n\n## Log\n' +
  entry('2026-08-03', 'stop hook', 60) +
  entry('2026-08-01', 'checkpoint skill', 60) +
  entry('2026-07-20', 'agent file cap', 60) +
  entry('2026-06-30', 'begin', 5);

/** `rel` in a new workspace is a second name of a file outside it holding `text`; returns both paths. */
function hardLinked(rel: string, text: string, files: Record<string, string> = {}) {
  const elsewhere = workspace({ 'notes.md': text }, 'sl-elsewhere-');
  const root = workspace(files);
  const outside = path.join(elsewhere, 'notes.md');
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  linkSync(outside, path.join(root, rel));
  return { root, outside };
}

test('compact-state, preview and --apply: a hard-linked .agents/STATE.md is refused, nothing written', async () => {
  const { root, outside } = hardLinked('.agents/STATE.md', S4);
  for (const args of [[], ['--apply'], ['--json']]) {
    const r = run(['compact-state', '--root', root, ...args]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /\.agents\/STATE\.md has 2 hard links, so it may be a file from outside the workspace folder: Session Ledger does not change it; nothing was written/,
    );
    assert.equal(r.stdout, '');
  }
  assert.equal(readFileSync(outside, 'utf8'), S4);
  assert.ok(!existsSync(path.join(root, '.agents/logs')), 'no preview written');
  await assert.rejects(planCompactState(root), (e: unknown) => e instanceof WriteRefused && e.detail === 'hard-links');
  await assert.rejects(applyCompactState(root, '0'.repeat(64)), (e: unknown) => e instanceof WriteRefused);
  assert.equal(readFileSync(outside, 'utf8'), S4);
});

test('rotate-log, preview and --apply: a hard-linked docs/state/STATE.md is refused, nothing written', () => {
  const { root, outside } = hardLinked('docs/state/STATE.md', S3);
  for (const args of [[], ['--apply'], ['--json']]) {
    const r = run(['rotate-log', '--root', root, ...args]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /docs\/state\/STATE\.md has 2 hard links, .*nothing was written/);
  }
  assert.equal(readFileSync(outside, 'utf8'), S3);
  assert.ok(!existsSync(path.join(root, 'docs/state/log')), 'no archive written');
});

test('rotate-log --apply: a hard-linked archive (docs/state/log/YYYY-MM.md) is refused, STATE.md untouched', async () => {
  const old = '# Log 2026-06\n\n### 2026-06-01 - older\n\n- was here\n';
  const { root, outside } = hardLinked('docs/state/log/2026-06.md', old, { 'docs/state/STATE.md': S3 });
  const r = run(['rotate-log', '--root', root, '--apply']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /docs\/state\/log\/2026-06\.md has 2 hard links, .*nothing was written/);
  assert.equal(readFileSync(outside, 'utf8'), old);
  assert.equal(readFileSync(path.join(root, 'docs/state/STATE.md'), 'utf8'), S3);
  assert.deepEqual(readdirSync(path.join(root, 'docs/state/log')), ['2026-06.md']);
  await assert.rejects(applyRotateLog(root, '0'.repeat(64)), (e: unknown) => e instanceof WriteRefused);
  await assert.rejects(
    planRotateLog(root),
    (e: unknown) => e instanceof WriteRefused && e.file === 'docs/state/log/2026-06.md',
  );
});

test('a hard link made after the preview, before the rename: the write refuses, the outside file unchanged', async () => {
  const root = workspace({ 'docs/state/STATE.md': S3 });
  const elsewhere = workspace({}, 'sl-elsewhere-');
  const file = path.join(root, 'docs/state/STATE.md');
  const plan = await planRotateLog(root);
  assert.ok(plan?.changed);
  await assert.rejects(
    applyRotateLog(root, plan.hash, { beforeStateRename: () => linkSync(file, path.join(elsewhere, 'other')) }),
    (e: unknown) => e instanceof WriteRefused && e.detail === 'hard-links',
  );
  assert.equal(readFileSync(path.join(elsewhere, 'other'), 'utf8'), S3);
  assert.equal(readFileSync(file, 'utf8'), S3);
  // writeAtomic itself, asked to refuse hard links, refuses before creating anything.
  writeFileSync(path.join(elsewhere, 'x'), 'x');
  linkSync(path.join(elsewhere, 'x'), path.join(root, 'y'));
  await assert.rejects(
    writeAtomic(path.join(root, 'y'), 'new', { root, refuseHardLinks: true }),
    (e: unknown) => e instanceof WriteRefused && e.reason === 'link',
  );
  assert.equal(readFileSync(path.join(elsewhere, 'x'), 'utf8'), 'x');
});

test('the extension words the refusal in the user language', () => {
  const err = new WriteRefused('…', 'link', '.agents/STATE.md', 'hard-links');
  assert.match(
    errorText((s, ...a) => s.replace(/\{(\d)\}/g, (_, i) => String(a[Number(i)])), err),
    /^\.agents\/STATE\.md has more than one hard link/,
  );
});

test('compact-state and rotate-log: a state file, Log archive or log folder that links out of the workspace is refused at the preview: not read, no preview or archive, nothing outside changed', async () => {
  const outsideRefused = (rel: string) => (e: unknown) =>
    e instanceof WriteRefused && e.reason === 'outside' && e.file === rel;
  const elsewhere = () => workspace({ 'notes.md': 'SECRET notes\n' }, 'sl-elsewhere-');

  // .agents/STATE.md links out: compact-state shows nothing of it and writes no preview.
  const out4 = workspace({ 'STATE.md': S4 }, 'sl-elsewhere-');
  const root4 = workspace({});
  mkdirSync(path.join(root4, '.agents'));
  symlinkSync(path.join(out4, 'STATE.md'), path.join(root4, '.agents/STATE.md'));
  const c = run(['compact-state', '--root', root4]);
  assert.equal(c.code, 1, c.stdout);
  assert.match(c.stderr, /\.agents\/STATE\.md leads outside the workspace .*nothing was written/);
  assert.doesNotMatch(c.stdout, /ledger-v2/, 'nothing of the outside file is shown');
  assert.ok(!existsSync(path.join(root4, '.agents/logs')), 'no preview written');
  await assert.rejects(planCompactState(root4), outsideRefused('.agents/STATE.md'));
  assert.equal(readFileSync(path.join(out4, 'STATE.md'), 'utf8'), S4);

  // docs/state/STATE.md links out.
  const out3 = workspace({ 'STATE.md': S3 }, 'sl-elsewhere-');
  const root3 = workspace({});
  mkdirSync(path.join(root3, 'docs/state'), { recursive: true });
  symlinkSync(path.join(out3, 'STATE.md'), path.join(root3, 'docs/state/STATE.md'));
  const r = run(['rotate-log', '--root', root3]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /docs\/state\/STATE\.md leads outside the workspace/);
  await assert.rejects(planRotateLog(root3), outsideRefused('docs/state/STATE.md'));
  assert.equal(readFileSync(path.join(out3, 'STATE.md'), 'utf8'), S3);

  // An archive that links out, or the whole log folder: the plan (which the extension's quick fix
  // writes through VS Code) is refused, and the outside file is neither read into it nor changed.
  const outA = elsewhere();
  const rootA = workspace({ 'docs/state/STATE.md': S3 });
  mkdirSync(path.join(rootA, 'docs/state/log'));
  symlinkSync(path.join(outA, 'notes.md'), path.join(rootA, 'docs/state/log/2026-06.md'));
  await assert.rejects(planRotateLog(rootA), outsideRefused('docs/state/log/2026-06.md'));
  const outF = elsewhere();
  const rootF = workspace({ 'docs/state/STATE.md': S3 });
  symlinkSync(outF, path.join(rootF, 'docs/state/log'));
  await assert.rejects(planRotateLog(rootF), (e: unknown) => e instanceof WriteRefused && e.reason === 'outside');
  for (const [out, root] of [
    [outA, rootA],
    [outF, rootF],
  ]) {
    assert.equal(run(['rotate-log', '--root', root]).code, 1);
    assert.deepEqual(readdirSync(out), ['notes.md']);
    assert.equal(readFileSync(path.join(out, 'notes.md'), 'utf8'), 'SECRET notes\n');
    assert.equal(readFileSync(path.join(root, 'docs/state/STATE.md'), 'utf8'), S3);
  }
});
