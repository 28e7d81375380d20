/**
 * Session Ledger's VS Code entry point. A thin layer over src/core: it registers the views, the
 * status item and the commands, returns at once (no I/O before returning), and starts scanning
 * afterwards. Data flows one way: watcher (the state files', git's) → store (core `evaluate`) → views.
 */
import * as vscode from 'vscode';
import { createApi, type SessionLedgerApi } from './api';
import { LedgerCodeLens } from './code-lens';
import { LedgerDiagnostics } from './diagnostics';
import { GoSignalWatch } from './go-signal-watch';
import { LedgerQuickFixes } from './quick-fixes';
import { ChecklistPanel } from './checklist/panel';
import { registerCommands } from './commands';
import { bindContextKeys } from './context-keys';
import { PreviewDocuments } from './preview';
import type { Services } from './services';
import { ContextStatusItem } from './status/context-status-item';
import { GuardPreview } from './status/guard-preview';
import { SessionMeter, shownSession } from './status/session-meter';
import { LedgerStore } from './store';
import { TickStore } from './tick-store';
import { LedgerTreeProvider } from './tree/provider';
import { GitWatchers } from './git-watch';
import { FolderWatchers } from './watch';

/** When the extension host started running this bundle (its build's banner), before its modules and the core it takes from the hook script loaded. */
declare const __sessionLedgerLoadStart: number | undefined;
/** When this bundle's modules (and the core they take from the hook script) had loaded. */
const MODULES_LOADED = performance.now();

export function activate(context: vscode.ExtensionContext): SessionLedgerApi {
  const t0 = performance.now();
  // The first scan is timed from the start of loading (as a user waits for it); activate() from its call.
  const loaded = typeof __sessionLedgerLoadStart === 'number' ? __sessionLedgerLoadStart : t0;
  const log = vscode.window.createOutputChannel('Session Ledger', { log: true });
  const ticks = new TickStore(context.workspaceState);
  const store = new LedgerStore(ticks, log);
  const tree = new LedgerTreeProvider(store);
  const meter = new SessionMeter(store, log);
  const guard = new GuardPreview(store, meter, log);
  const statusItem = new ContextStatusItem(guard);
  const checklist = new ChecklistPanel(context.extensionUri, store, ticks, log, meter);
  const previews = new PreviewDocuments();
  const watchers = new FolderWatchers(store, log);
  const gitWatchers = new GitWatchers(store, log);
  const diagnostics = new LedgerDiagnostics(store, context.extensionUri);
  const codeLens = new LedgerCodeLens(store);
  const goSignals = new GoSignalWatch(store, log);
  const s: Services = {
    context,
    log,
    store,
    ticks,
    tree,
    meter,
    statusItem,
    checklist,
    previews,
    diagnostics,
    goSignals,
  };

  const view = vscode.window.createTreeView('sessionLedger.ledger', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(
    log,
    ticks,
    store,
    tree,
    view,
    meter,
    guard,
    statusItem,
    checklist,
    previews,
    diagnostics,
    goSignals,
    new LedgerQuickFixes(diagnostics, log, previews).register(),
    codeLens,
    codeLens.register(),
    watchers,
    gitWatchers,
    previews.register(),
    checklist.registerSerializer(),
    ...registerCommands(s),
    bindContextKeys(store, meter),
    // Several agent sessions live: a line above the tree names the client and session its manual ticks belong to.
    // Set only when it changes: the meter changes on every append to the transcript.
    meter.onDidChange((m) => {
      const message = m?.others.length ? shownSession(vscode.l10n.t, m).label : undefined;
      if (view.message !== message) view.message = message;
    }),
  );

  // Everything is registered; the reading starts once activate() has returned.
  const started = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
    store.start();
    meter.start();
    void watchers.start().catch((err) => log.error(`Watchers: ${(err as Error)?.message ?? String(err)}`));
    void gitWatchers.start().catch((err) => log.error(`Git watchers: ${(err as Error)?.message ?? String(err)}`));
  });
  // Ready: every folder scanned once and the context meter looked for a session once.
  const ready = started.then(() => store.ready).then(() => meter.firstRead);
  void started
    .then(() => store.ready)
    .then(() => {
      const n = store.folders().reduce((k, f) => k + (f.report?.systems.length ?? 0), 0);
      const shown = store.firstShown?.report.gitPending
        ? ` First results shown ${Math.round(store.firstShown.at - loaded)} ms after loading began, while git was read.`
        : '';
      log.info(
        `First scan finished ${Math.round(performance.now() - loaded)} ms after loading began: ${n} ${n === 1 ? 'system' : 'systems'} detected.${shown}`,
      );
    });

  log.info(
    `Session Ledger activated in ${(performance.now() - t0).toFixed(1)} ms (${vscode.workspace.isTrusted ? 'trusted' : 'Restricted Mode: read-only'}); its modules loaded in ${(MODULES_LOADED - loaded).toFixed(1)} ms, activate() was called ${(t0 - loaded).toFixed(1)} ms after loading began.`,
  );
  return createApi(s, ready);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
