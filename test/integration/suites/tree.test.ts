import * as assert from 'node:assert/strict';
import { flatten, getApi, type TreeNode } from '../helpers';

describe('ledger tree', () => {
  let roots: TreeNode[];
  before(async () => {
    const api = await getApi();
    roots = (await api.treeSnapshot()) as TreeNode[];
  });

  it('has a root per system home file, labelled with its path and "<id> · <label>"', async () => {
    const report = (await getApi()).report()!;
    for (const s of report.systems) {
      const root = roots.find((r) => r.label === s.home);
      assert.ok(root, `a root labelled ${s.home} (roots: ${roots.map((r) => r.label).join(', ')})`);
      assert.equal(root.description, `${s.id} · ${s.label}`);
    }
  });

  it('shows the S3 handoff with its Now ▶ action', () => {
    const s3 = roots.find((r) => r.label === 'docs/state/STATE.md')!;
    const handoff = s3.children.find((c) => /^Handoff/.test(c.label));
    assert.ok(handoff, `a Handoff section (got ${s3.children.map((c) => c.label).join(' | ')})`);
    assert.ok(
      flatten(handoff.children).some((i) => i.label.includes('Now ▶') && i.label.includes('renew(db, loanId, now)')),
      'the Now ▶ item names renew()',
    );
  });

  it('shows the S2 sections as written, with the NEXT item', () => {
    const s2 = roots.find((r) => r.label === '.claude/session-ledger.md')!;
    const titles = s2.children.map((c) => c.label);
    for (const t of ['TASK', 'NEXT', 'OPEN', 'DECIDED', 'VERIFIED', 'DROPPED', 'PLAN']) assert.ok(titles.includes(t), `section ${t} (got ${titles.join(', ')})`);
    const next = s2.children.find((c) => c.label === 'NEXT')!;
    assert.ok(next.children.some((i) => i.label.startsWith('Add `renew(db, loanId, now)`')), 'NEXT holds the renew() item');
  });

  it('shows the S0 UNCONFIRMED items and the S4 current feature blocks', () => {
    const s0 = roots.find((r) => r.label === '.agents/session_ledger.md')!;
    const items = flatten(s0.children);
    assert.equal(items.filter((i) => i.label.includes('UNCONFIRMED')).length, 2, 'two UNCONFIRMED items');
    const s4 = roots.find((r) => r.label === '.agents/STATE.md')!;
    const feats = s4.children.filter((c) => c.label.startsWith('Current Feature'));
    assert.deepEqual(feats.map((f) => f.label), ['Current Feature: overdue scan', 'Current Feature: reservation queue']);
  });

  it('shows the S1 handoff\'s "What to do now" items', () => {
    const s1 = roots.find((r) => r.label === 'memory/session-handoff-LATEST.md')!;
    const now = s1.children.find((c) => c.label.startsWith('What to do now'));
    assert.ok(now, `a "What to do now" section (got ${s1.children.map((c) => c.label).join(' | ')})`);
    assert.ok(flatten(now.children).some((i) => i.label.includes('Expire uncollected holds')));
  });
});
