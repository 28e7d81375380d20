/** What the commands, views and the API share: created once in `activate`, disposed with the extension. */
import type * as vscode from 'vscode';
import type { ChecklistPanel } from './checklist/panel';
import type { LedgerDiagnostics } from './diagnostics';
import type { GoSignalWatch } from './go-signal-watch';
import type { PreviewDocuments } from './preview';
import type { SessionMeter } from './status/session-meter';
import type { ContextStatusItem } from './status/context-status-item';
import type { LedgerStore } from './store';
import type { TickStore } from './tick-store';
import type { LedgerTreeProvider } from './tree/provider';

export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly store: LedgerStore;
  readonly ticks: TickStore;
  readonly tree: LedgerTreeProvider;
  readonly meter: SessionMeter;
  readonly statusItem: ContextStatusItem;
  readonly checklist: ChecklistPanel;
  readonly previews: PreviewDocuments;
  readonly diagnostics: LedgerDiagnostics;
  /** The go-signals Checkpoint now gave, followed until they no longer hold. */
  readonly goSignals: GoSignalWatch;
}
