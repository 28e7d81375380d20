/**
 * The rows a tree view was given, kept by id so that a new report refreshes only the rows whose
 * rendering changed. VS Code knows a row by the element object it got: a row with the same id keeps
 * its object, which takes the new node's fields (`adopt`), and only rows whose item or children
 * changed are named in the refresh. Under an agent that rewrites its state file ten times a second,
 * that is the system's row and its next action's row instead of every row of every system.
 */

/** How the tree's nodes are rendered and copied. */
export interface RowRendering<N> {
  /** The row's id (its TreeItem's id): stable across reports. */
  id(node: N): string;
  /** Everything VS Code shows of the row (label, description, tooltip, icon, command…), as one string. */
  sig(node: N): string;
  children(node: N): N[];
  /** Can `into` take `from`'s fields (same kind of node)? */
  sameKind(into: N, from: N): boolean;
  /** Give `into` (the object VS Code knows) `from`'s fields. */
  adopt(into: N, from: N): void;
}

const ROOT = '\0root';

export class StableRows<N extends object> {
  private readonly rows = new Map<string, { node: N; sig?: string }>();
  /** The ids of the children served per parent id (ROOT: the roots). */
  private readonly kids = new Map<string, string[]>();

  constructor(private readonly r: RowRendering<N>) {}

  /** The children of `parent` (undefined: the roots) as served to the view: the known object for every known id. */
  serve(parent: N | undefined, fresh: readonly N[]): N[] {
    const key = parent ? this.r.id(parent) : ROOT;
    const out = fresh.map((f) => {
      const id = this.r.id(f);
      const row = this.rows.get(id);
      if (row && this.r.sameKind(row.node, f)) {
        if (row.node !== f) this.r.adopt(row.node, f);
        return row.node;
      }
      if (row) this.drop(id);
      this.rows.set(id, { node: f });
      return f;
    });
    const ids = out.map((n) => this.r.id(n));
    const keep = new Set(ids);
    for (const old of this.kids.get(key) ?? []) if (!keep.has(old)) this.drop(old);
    this.kids.set(key, ids);
    return out;
  }

  /** The view rendered `node` as `sig`. */
  rendered(node: N, sig: string): void {
    const row = this.rows.get(this.r.id(node));
    if (row && row.node === node) row.sig = sig;
  }

  /**
   * The rows to refresh for a new set of roots: every served row takes its new node's fields; a row
   * is named when its rendering changed or its children's ids did (its children are then served
   * again). 'all' when the roots themselves changed or nothing was served yet: the whole tree.
   */
  changes(roots: readonly N[]): N[] | 'all' {
    const served = this.kids.get(ROOT);
    if (!served || !sameIds(served, roots.map(this.r.id))) {
      return this.reset();
    }
    const out: N[] = [];
    const visit = (fresh: readonly N[]): boolean => {
      for (const f of fresh) {
        const row = this.rows.get(this.r.id(f));
        if (!row || !this.r.sameKind(row.node, f)) return false;
        if (row.node !== f) this.r.adopt(row.node, f);
        const sig = this.r.sig(row.node);
        let dirty = sig !== row.sig;
        const was = this.kids.get(this.r.id(row.node));
        if (was) {
          const now = this.r.children(row.node);
          if (!sameIds(was, now.map(this.r.id))) dirty = true;
          // A row refreshed has its children served again; otherwise they are compared one by one.
          else if (!dirty && !visit(now)) dirty = true;
        }
        if (dirty) out.push(row.node);
      }
      return true;
    };
    if (!visit(roots)) {
      return this.reset();
    }
    return out;
  }

  /** Forget every row: the whole tree is served again. */
  private reset(): 'all' {
    this.rows.clear();
    this.kids.clear();
    return 'all';
  }

  /** Forget a row and every row served under it. */
  private drop(id: string): void {
    this.rows.delete(id);
    const under = this.kids.get(id);
    this.kids.delete(id);
    for (const k of under ?? []) this.drop(k);
  }
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
