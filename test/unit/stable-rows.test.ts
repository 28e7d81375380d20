/** The tree's stable rows: a new report refreshes only the rows whose rendering or children changed, on the objects the view knows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StableRows } from '../../src/extension/pure/stable-rows';

class Row {
  constructor(
    public id: string,
    public text: string,
    public kids: Row[] = [],
  ) {}
}
class Other extends Row {}

function rows(): StableRows<Row> {
  return new StableRows<Row>({
    id: (n) => n.id,
    sig: (n) => n.text,
    children: (n) => n.kids,
    sameKind: (a, b) => a.constructor === b.constructor,
    adopt: (into, from) => Object.assign(into, from),
  });
}

/** A tree of two systems, S0 with a `Now` row and a collapsed `Docs` row, S3 with a `Now` row. */
function tree(now3: string, extra: Row[] = []): Row[] {
  return [
    new Row('S0', 'S0 ok', [new Row('S0|now', 'Now a'), new Row('S0|docs', 'Docs', [new Row('S0|d1', 'd1')])]),
    new Row('S3', `S3 ok ${now3}`, [new Row('S3|now', `Now ${now3}`), ...extra]),
  ];
}

/** What the view asks for: the roots, then the children of the expanded rows (not S0's Docs), rendering each. */
function show(r: StableRows<Row>, roots: Row[]): Row[] {
  const top = r.serve(undefined, roots);
  for (const n of top) {
    r.rendered(n, n.text);
    for (const k of r.serve(n, n.kids)) r.rendered(k, k.text);
  }
  return top;
}

/** The ids of the rows `changes` names for `next`, after the view was shown `tree('1')`. */
function changedIds(next: Row[]): string[] {
  const r = rows();
  show(r, tree('1'));
  const changed = r.changes(next);
  assert.ok(Array.isArray(changed));
  return changed.map((n) => n.id);
}

test('nothing served yet: the whole tree', () => {
  assert.equal(rows().changes(tree('1')), 'all');
});

test('one system rewritten: its row and its Now row, on the objects the view was given, and no other', () => {
  const r = rows();
  const shown = show(r, tree('1'));
  const s3 = shown[1];
  const now3 = s3.kids[0];
  const changed = r.changes(tree('2'));
  assert.ok(Array.isArray(changed));
  assert.deepEqual(
    changed.map((n) => n.id),
    ['S3'],
    'S3 changed, so its children are served again with it',
  );
  assert.equal(changed[0], s3, 'the same object');
  assert.equal(s3.text, 'S3 ok 2', 'with the new fields');
  // Served again: the Now row keeps its object and takes the new text.
  const again = r.serve(s3, s3.kids);
  assert.equal(again[0], now3);
  assert.equal(now3.text, 'Now 2');
});

test('only a leaf changed: only that row', () => {
  const next = tree('1');
  next[0].kids[0] = new Row('S0|now', 'Now b');
  assert.deepEqual(changedIds(next), ['S0|now']);
});

test('the same report: no row', () => {
  const r = rows();
  show(r, tree('1'));
  assert.deepEqual(r.changes(tree('1')), []);
});

test('a row added under a system: that system (its children are served again); a collapsed row is not compared', () => {
  const next = tree('1', [new Row('S3|!finding', 'a finding')]);
  next[0].kids[1].kids = [new Row('S0|d2', 'd2')];
  assert.deepEqual(changedIds(next), ['S3']);
});

test('a system added or gone, or a row of another kind under the same id: the whole tree', () => {
  const r = rows();
  show(r, tree('1'));
  assert.equal(r.changes(tree('1').slice(0, 1)), 'all');
  const next = tree('1');
  next[1].kids[0] = new Other('S3|now', 'Now 1');
  assert.deepEqual(changedIds(next), ['S3'], 'its parent is refreshed');
});

test('rows no longer served are forgotten: a later row with their id is a new object', () => {
  const r = rows();
  const shown = show(r, tree('1', [new Row('S3|x', 'x')]));
  const x = shown[1].kids[1];
  r.serve(shown[1], [new Row('S3|now', 'Now 1')]);
  const back = r.serve(shown[1], [new Row('S3|now', 'Now 1'), new Row('S3|x', 'x again')]);
  assert.notEqual(back[1], x);
});
