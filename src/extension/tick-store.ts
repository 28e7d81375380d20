/**
 * Where manual checklist ticks live: the workspace's Memento, keyed per agent session, per scope (the
 * session's items, or a system's own) and per version (hash) of the state files they hold for. See
 * pure/ticks.ts.
 */
import * as vscode from 'vscode';
import { pruneTicks, tickKey, type TickScope } from './pure/ticks';
import { Disposable } from './dispose';

const KEY = 'sessionLedger.ticks';
/** The items a checkpoint's marker confirmed that the user unticked since, per session and marker (its hash). */
const UNTICKED = 'sessionLedger.unticked';

export class TickStore extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  private table(): Record<string, string[]> {
    return this.memento.get<Record<string, string[]>>(KEY, {});
  }

  get(sessionId: string | null | undefined, scope: TickScope, hash: string): ReadonlySet<string> {
    return new Set(this.table()[tickKey(sessionId, scope, hash)] ?? []);
  }

  async set(
    sessionId: string | null | undefined,
    scope: TickScope,
    hash: string,
    checkId: string,
    ticked: boolean,
    fire = true,
  ): Promise<void> {
    const table = { ...this.table() };
    const key = tickKey(sessionId, scope, hash);
    const cur = new Set(table[key] ?? []);
    if (ticked) cur.add(checkId);
    else cur.delete(checkId);
    delete table[key];
    if (cur.size) table[key] = [...cur].sort();
    await this.memento.update(KEY, pruneTicks(table));
    // Several changes of one click fire once, with the last: no view shows the state between them.
    if (fire) this._onDidChange.fire();
  }

  /** The items (`itemKey`) the user unticked while the marker of hash `markerHash` gave them to `sessionId`. */
  unticked(sessionId: string | null | undefined, markerHash: string): ReadonlySet<string> {
    return new Set(this.memento.get<Record<string, string[]>>(UNTICKED, {})[untickKey(sessionId, markerHash)] ?? []);
  }

  /**
   * Keep an untick of `key` against the marker of hash `markerHash`; with null, take the user's unticks
   * of `key` back (ticked again), whichever marker of the session they were kept against.
   */
  async setUnticked(
    sessionId: string | null | undefined,
    key: string,
    markerHash: string | null,
    fire = true,
  ): Promise<void> {
    const table = { ...this.memento.get<Record<string, string[]>>(UNTICKED, {}) };
    const keys =
      markerHash === null
        ? Object.keys(table).filter((k) => k.startsWith(untickKey(sessionId, '')))
        : [untickKey(sessionId, markerHash)];
    let changed = false;
    for (const k of keys) {
      const cur = new Set(table[k] ?? []);
      if (cur.has(key) === (markerHash !== null)) continue;
      if (markerHash !== null) cur.add(key);
      else cur.delete(key);
      changed = true;
      delete table[k];
      if (cur.size) table[k] = [...cur].sort();
    }
    if (!changed) return;
    await this.memento.update(UNTICKED, pruneTicks(table));
    if (fire) this._onDidChange.fire();
  }
}

/** Where the unticks against a session's marker are kept. */
function untickKey(sessionId: string | null | undefined, markerHash: string): string {
  return `${sessionId || '-'}|marker|${markerHash}`;
}
