/**
 * What `activate()` returns: a small API for tests and automation, reached through
 * `vscode.extensions.getExtension('session-ledger.session-ledger')!.exports`.
 */
import * as vscode from 'vscode';
import type { WorkspaceReport } from '../core/model/model';
import { tickPlace } from './pure/ticks';
import type { Services } from './services';
import { lastCheckpointRun, type CheckpointRunCounts } from './commands/checkpoint-now';

export interface SessionLedgerApi {
  /** Resolves when the first scan of every folder finished (and the context meter looked for a session once). */
  ready: Promise<void>;
  /** The first report this window showed: a folder's first results while git was read (`gitPending`), else its full report. */
  firstShown(): WorkspaceReport | undefined;
  /** The latest report of a folder (default: the first folder). */
  report(folder?: vscode.Uri): WorkspaceReport | undefined;
  /** How many reads of a folder (default: the first folder) finished since the window opened: what the watchers caused. */
  scans(folder?: vscode.Uri): number;
  /** Re-scan every folder and re-read the context meter now. */
  refresh(): Promise<void>;
  /** The ledger tree as labels and descriptions. */
  treeSnapshot(): Promise<
    Array<{
      label: string;
      description?: string;
      children: Array<{ label: string; description?: string; children: unknown[] }>;
    }>
  >;
  /** The context status bar item as shown; undefined when hidden. */
  statusBar(): { text: string; label: string; tooltip: string; background?: string } | undefined;
  /** What the Problems panel holds from Session Ledger: file, line, severity, check id, message. */
  diagnostics(): Array<{ path: string; line: number; severity: string; code: string; message: string }>;
  /** Whether the workspace is trusted (writes allowed). */
  trusted(): boolean;
  /** What the last "Checkpoint now" did: evaluations up to its decision, decisions, marker writes, rescans. */
  lastCheckpointRun(): CheckpointRunCounts | undefined;
  /** Tick (or untick) every manual item of a folder, as the checklist's boxes do. */
  tickManualItems(ticked: boolean, folder?: vscode.Uri): Promise<void>;
}

export function createApi(s: Services, ready: Promise<void>): SessionLedgerApi {
  return {
    ready,
    firstShown: () => s.store.firstShown?.report,
    report: (folder) => s.store.report(folder),
    scans: (folder) => s.store.folder(folder)?.scans ?? 0,
    refresh: async () => {
      await ready;
      await s.store.refreshAll();
      await s.meter.refresh();
    },
    treeSnapshot: async () => {
      await ready;
      return s.tree.snapshot();
    },
    statusBar: () => s.statusItem.snapshot(),
    diagnostics: () => s.diagnostics.snapshot(),
    trusted: () => vscode.workspace.isTrusted,
    lastCheckpointRun,
    tickManualItems: async (ticked, folder) => {
      await ready;
      const report = s.store.report(folder);
      const done = new Set<string>();
      for (const sys of report?.systems ?? []) {
        for (const c of sys.checks) {
          if (c.severity !== 'manual') continue;
          // The session's items are one tick for every system.
          const [scope, hash] = tickPlace(report!, sys, c.id);
          if (done.has(`${scope}:${c.id}`)) continue;
          done.add(`${scope}:${c.id}`);
          await s.ticks.set(s.store.session(), scope, hash, c.id, ticked);
        }
      }
    },
  };
}
