import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { flatten, getApi, type TreeNode } from '../helpers';

/** A system root's "Documents" row, then the document labelled `rel` under it. */
function docUnder(root: TreeNode, rel: string): TreeNode {
  const docs = root.children.find((c) => c.label === 'Documents');
  assert.ok(docs, `${root.label} has a Documents row (children: ${root.children.map((c) => c.label).join(' | ')})`);
  const d = docs.children.find((c) => c.label === rel);
  assert.ok(d, `${rel} under ${root.label} (got ${docs.children.map((c) => c.label).join(', ')})`);
  return d;
}

describe('ledger tree', () => {
  let roots: TreeNode[];
  before(async () => {
    const api = await getApi();
    roots = (await api.treeSnapshot()) as TreeNode[];
  });
  const root = (id: string) => {
    const r = roots.find((x) => x.label.startsWith(`${id} `));
    assert.ok(r, `a root for ${id} (roots: ${roots.map((x) => x.label).join(' | ')})`);
    return r;
  };

  it('has one root per system, labelled "<id> <short name> — <label>"', async () => {
    const report = (await getApi()).report()!;
    assert.equal(roots.filter((x) => /^S\d /.test(x.label)).length, report.systems.length);
    for (const s of report.systems) assert.match(root(s.id).label, new RegExp(`^${s.id} \\S.* — ${s.label}$`));
    // S3's own label says its file; the session's manual items are the folder's row, once for every system.
    assert.equal(root('S3').label, 'S3 Groundwork — WORKING');
  });

  it("shows the session's manual items once, first (as the checklist asks them), not under each system", () => {
    const rows = roots.filter((x) => /manual to tick/.test(x.label));
    assert.equal(rows.length, 1, roots.map((x) => x.label).join(' | '));
    assert.equal(roots[0], rows[0], roots.map((x) => x.label).join(' | '));
    // A short label, as a system row counts them, so the sidebar shows it whole; the sentence in its name.
    assert.equal(rows[0].label, '2 manual to tick');
    assert.equal(rows[0].description, 'This session (every system)');
    assert.match(rows[0].name ?? '', /^This session \(every system\): 2 manual items to tick/);
    assert.match(rows[0].name ?? '', /A tick is reset when any detected system's state file changes\./);
  });

  it("answers first: a system's first row is its next action, then its findings, manual items, and Documents last", () => {
    const s4 = root('S4');
    assert.match(s4.children[0].label, /^Next action: Add ‘expireHolds\(db, now\)’/);
    assert.equal(
      s4.children[1].description,
      'compaction',
      `the S4 compaction warning is the second row (got ${s4.children.map((c) => `${c.label} [${c.description}]`).join(' | ')})`,
    );
    assert.match(s4.children[1].label, /Current Feature/);
    assert.equal(s4.children.at(-1)!.label, 'Documents');
    const s3 = root('S3');
    assert.match(s3.children[0].label, /^Next action: add ‘renew\(db, loanId, now\)’/);
    // The session's items are not S3's: its next row is Documents.
    assert.equal(s3.children[1].label, 'Documents');
  });

  it('shows plain text: no label or description holds a backtick, a code span is in quotes', () => {
    const rows = flatten(roots);
    for (const r of rows) {
      assert.doesNotMatch(r.label, /`/, r.label);
      assert.doesNotMatch(r.description ?? '', /`/, `${r.label}: ${r.description}`);
    }
    assert.ok(rows.filter((r) => /‘[^‘’]+’/.test(r.label)).length > 3, 'rows quote their code spans');
  });

  it('shows the S3 handoff with its Now ▶ item under Documents', () => {
    const state = docUnder(root('S3'), 'docs/state/STATE.md');
    const handoff = state.children.find((c) => /^Handoff/.test(c.label));
    assert.ok(handoff, `a Handoff section (got ${state.children.map((c) => c.label).join(' | ')})`);
    assert.ok(
      flatten(handoff.children).some((i) => i.label.includes('Now ▶') && i.label.includes('renew(db, loanId, now)')),
      'the Now ▶ item names renew()',
    );
  });

  it('shows the S2 sections as written, with the NEXT item', () => {
    const ledger = docUnder(root('S2'), '.claude/session-ledger.md');
    const titles = ledger.children.map((c) => c.label);
    for (const t of ['TASK', 'NEXT', 'OPEN', 'DECIDED', 'VERIFIED', 'DROPPED', 'PLAN'])
      assert.ok(titles.includes(t), `section ${t} (got ${titles.join(', ')})`);
    const next = ledger.children.find((c) => c.label === 'NEXT')!;
    assert.ok(
      next.children.some((i) => i.label.startsWith('Add ‘renew(db, loanId, now)’')),
      'NEXT holds the renew() item',
    );
  });

  it('shows the S0 UNCONFIRMED items (as findings and as items) and the S4 current feature blocks', () => {
    const s0 = root('S0');
    assert.equal(s0.children.filter((c) => c.description === 'unconfirmed').length, 2, 'two unconfirmed findings');
    const items = flatten(docUnder(s0, '.agents/session_ledger.md').children);
    assert.equal(items.filter((i) => i.label.includes('UNCONFIRMED')).length, 2, 'two UNCONFIRMED items');
    const feats = docUnder(root('S4'), '.agents/STATE.md').children.filter((c) =>
      c.label.startsWith('Current Feature'),
    );
    assert.deepEqual(
      feats.map((f) => f.label),
      ['Current Feature: overdue scan', 'Current Feature: reservation queue'],
    );
  });

  it('shows the S1 handoff\'s "What to do now" items', () => {
    const handoff = docUnder(root('S1'), 'memory/session-handoff-LATEST.md');
    const now = handoff.children.find((c) => c.label.startsWith('What to do now'));
    assert.ok(now, `a "What to do now" section (got ${handoff.children.map((c) => c.label).join(' | ')})`);
    assert.ok(flatten(now.children).some((i) => i.label.includes('Expire uncollected holds')));
  });

  it('has no empty or metadata rows, and every document once', () => {
    const docs = roots.flatMap((r) => r.children.find((c) => c.label === 'Documents')?.children ?? []);
    const names = docs.map((d) => d.label);
    assert.deepEqual(names, [...new Set(names)], 'no document twice');
    for (const d of docs) {
      d.children.forEach((sec, i) => {
        // an empty heading stays only as the parent of subsections with items (S4's Current Feature)
        assert.ok(
          sec.children.length > 0 || (d.children[i + 1]?.children.length ?? 0) > 0,
          `${d.label}: section "${sec.label}" has items or a subsection with items`,
        );
        assert.notEqual(sec.label, '(preamble)', `${d.label}: no preamble row`);
      });
    }
  });

  it('names every row for a screen reader in plain words: severity first on findings, the system on manual rows, no Markdown or raw flags', async () => {
    const report = (await getApi()).report()!;
    const all = flatten(roots);
    for (const n of all) {
      assert.ok(n.name, `"${n.label}" has an accessible name`);
      assert.doesNotMatch(n.name, /\*\*|`|Flags:|field:|\$\(/, `"${n.label}" is named in plain words: ${n.name}`);
    }
    for (const s of report.systems) {
      const rows = root(s.id).children;
      const findings = s.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
      const named = rows.filter((r) => /^(Blocking|Warning|Info): /.test(r.name ?? ''));
      assert.equal(
        named.length,
        findings.length,
        `${s.id}: each finding row says its severity (${rows.map((r) => r.name).join(' | ')})`,
      );
      for (const c of findings) {
        const word = c.severity === 'block' ? 'Blocking' : c.severity === 'warn' ? 'Warning' : 'Info';
        assert.ok(
          named.some((r) => r.name!.startsWith(`${word}: ${s.id} ${c.id}`)),
          `${s.id} ${c.id} is spoken as "${word}"`,
        );
      }
      const manual = rows.find((r) => /manual items? to tick/.test(r.label));
      if (manual)
        assert.match(
          manual.name!,
          new RegExp(`^${s.id} [^:]+: \\d+ manual items? to tick`),
          `${s.id}'s manual row names its system`,
        );
    }
  });
});

describe('Problems panel', () => {
  it('lists every failing or warning check on its file and line, with source "Session Ledger" and the check id as code', async () => {
    const api = await getApi();
    const root = vscode.workspace.workspaceFolders![0].uri;
    const uri = vscode.Uri.joinPath(root, '.agents', 'STATE.md');
    const diags = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Session Ledger');
    const compaction = diags.find((d) => typeof d.code === 'object' && d.code.value === 'compaction');
    assert.ok(compaction, `a compaction diagnostic on .agents/STATE.md (got ${JSON.stringify(api.diagnostics())})`);
    assert.equal(compaction.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(compaction.range.start.line + 1, 19, 'on the first Current Feature heading');
    assert.match(String((compaction.code as { target: { fragment: string } }).target.fragment), /what-is-checked/);
    const unconfirmed = vscode.languages
      .getDiagnostics(vscode.Uri.joinPath(root, '.agents', 'session_ledger.md'))
      .filter((d) => d.source === 'Session Ledger');
    assert.deepEqual(
      unconfirmed.map((d) => d.range.start.line + 1).sort((a, b) => a - b),
      [12, 31],
    );
    // the report and the panel agree: one diagnostic per finding
    const findings = api
      .report()!
      .systems.flatMap((s) => s.checks)
      .filter((c) => c.status === 'fail' || c.status === 'warn');
    assert.equal(api.diagnostics().length, findings.length);
    // plain text, as the panel shows and speaks it (the panel says the severity itself)
    for (const d of api.diagnostics())
      assert.doesNotMatch(d.message, /`|\*\*/, `${d.path}:${d.line} ${d.code}: ${d.message}`);
  });
});
