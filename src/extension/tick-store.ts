/**
 * Where manual checklist ticks live: the workspace's Memento, keyed per agent session, per scope (the
 * session's items, or a system's own) and per version (hash) of the state files they hold for. See
 * pure/ticks.ts.
 */
import * as vscode from 'vscode';
import { pruneTicks, tickKey, type TickScope } from './pure/ticks';
import { Disposable } from './dispose';

const KEY = 'sessionLedger.ticks';

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
  ): Promise<void> {
    const table = { ...this.table() };
    const key = tickKey(sessionId, scope, hash);
    const cur = new Set(table[key] ?? []);
    if (ticked) cur.add(checkId);
    else cur.delete(checkId);
    delete table[key];
    if (cur.size) table[key] = [...cur].sort();
    await this.memento.update(KEY, pruneTicks(table));
    this._onDidChange.fire();
  }
}
