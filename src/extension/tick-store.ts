/**
 * Where manual checklist ticks live: the workspace's Memento, keyed per agent session and per
 * version (hash) of the system's home document. See pure/ticks.ts.
 */
import * as vscode from 'vscode';
import type { SystemId } from '../core/model/model';
import { pruneTicks, tickKey } from './pure/ticks';
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

  get(sessionId: string | null | undefined, system: SystemId, hash: string): ReadonlySet<string> {
    return new Set(this.table()[tickKey(sessionId, system, hash)] ?? []);
  }

  async set(
    sessionId: string | null | undefined,
    system: SystemId,
    hash: string,
    checkId: string,
    ticked: boolean,
  ): Promise<void> {
    const table = { ...this.table() };
    const key = tickKey(sessionId, system, hash);
    const cur = new Set(table[key] ?? []);
    if (ticked) cur.add(checkId);
    else cur.delete(checkId);
    delete table[key];
    if (cur.size) table[key] = [...cur].sort();
    await this.memento.update(KEY, pruneTicks(table));
    this._onDidChange.fire();
  }
}
