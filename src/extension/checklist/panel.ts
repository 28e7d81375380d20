/**
 * The checklist: one WebviewPanel (`sessionLedger.checklist`) showing a folder's checks. Its page
 * (../pure/checklist-page: a strict CSP with a nonce, one script from dist/), typed messages
 * (src/protocol/checklist.ts), a ready handshake.
 * It re-renders whenever the store changes, so it follows the agent rewriting the files.
 */
import * as vscode from 'vscode';
import { itemKey, splitItemKey, untickPlan } from '../../core/checkpoint/marker-stand';
import { isSessionItem, type SystemReport, type WorkspaceReport } from '../../core/model/model';
import {
  parseWebviewMessage,
  type ChecklistState,
  type ChecklistStrings,
  type HostToWebview,
  type WebviewToHost,
  type WriteResult,
} from '../../protocol/checklist';
import {
  checklistState,
  pastResult,
  recheckedText,
  resultBasis,
  resultHolds,
  type ChecklistFocus,
  type ResultBasis,
} from '../pure/checklist-model';
import { checklistPage } from '../pure/checklist-page';
import { ticksNote, ticksSession, type PinnedTicks } from '../pure/checklist-ticks';
import { tickPlace } from '../pure/ticks';
import { runnableCheck } from '../../core/systems/s3/facts';
import type { RepoChecksResult } from '../../core/systems/s3/repo-checks';
import type { FolderState, LedgerStore } from '../store';
import { shownSession, type SessionMeter } from '../status/session-meter';
import type { TickStore } from '../tick-store';
import { markerStandsText, TRUST_COMMAND } from '../pure/status-text';

export const CHECKLIST_VIEW_TYPE = 'sessionLedger.checklist';

function strings(): ChecklistStrings {
  const t = vscode.l10n.t;
  return {
    title: t('Session Ledger Checklist'),
    overall: t('Overall'),
    writeMarker: t('Write marker & copy resume prompt'),
    refresh: t('Re-check'),
    blocked: t('A blocking check fails: fix it (or ask the agent to checkpoint) before the marker can be written.'),
    manualOpenOne: t('1 manual item not ticked yet: tick it when it is true.'),
    manualOpen: t('{0} manual items not ticked yet: tick them when they are true.', '{0}'),
    sessionTitle: t('This session (every system)'),
    sessionHelp: t(
      "Asked once for this agent session, for every system. A tick is reset when any detected system's state file changes.",
    ),
    untrusted: t('Restricted Mode: Session Ledger shows the checks but writes nothing.'),
    manageTrust: t('Manage Workspace Trust'),
    nothing: t('No agent state file detected in this folder.'),
    next: t('Next action:'),
    fix: t('Fix:'),
    busy: t('Writing the marker…'),
    ready: t('Nothing blocks and every manual item is ticked: the marker can be written.'),
    result: t('Result'),
    status: {
      pass: t('pass'),
      fail: t('fail'),
      warn: t('warning'),
      'manual-open': t('to tick'),
      'manual-done': t('ticked'),
      skipped: t('skipped'),
    },
    info: t('info'),
    failBlocks: t('fail · blocks the marker'),
  };
}

export class ChecklistPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private folderKey: string | undefined;
  private ready = false;
  private busy = false;
  private pendingFocus: ChecklistFocus | undefined;
  /** The session whose ticks the boxes show when Checkpoint now switched them from the followed one. */
  private pinned: PinnedTicks | undefined;
  /**
   * The result under the write button: what it says, what it was given on, and whether the page shows
   * it yet. Replaced by the past result once the checks change after it.
   */
  private result: { said: WriteResult; basis: ResultBasis; posted: boolean } | undefined;
  /** The repository's own checks per folder: running, and the last result (shown until the panel closes). */
  private readonly checksRuns = new Map<string, { running: boolean; result?: RepoChecksResult }>();
  /** The module that runs the repository's checks, once a click loaded it. */
  private repoChecks?: typeof import('../../core/systems/s3/repo-checks');
  private readonly subs: vscode.Disposable[] = [];
  private panelSubs: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: LedgerStore,
    private readonly ticks: TickStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly meter?: SessionMeter,
  ) {
    if (meter) this.subs.push(meter.onDidChange(() => this.postState()));
    this.subs.push(
      store.onDidChange((f) => {
        if (!f || f.uri.toString() === this.folderKey) this.postState();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postState()),
    );
  }

  /** Register the serializer so a checklist left open comes back after a reload. */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(CHECKLIST_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => {
        await this.store.ready;
        const first = this.store.folders().find((f) => f.report?.systems.length) ?? this.store.folder();
        if (!first) {
          panel.dispose();
          return;
        }
        this.adopt(panel, first);
      },
    });
  }

  /** The folder the panel shows, when it is open. */
  folder(): FolderState | undefined {
    if (!this.panel || !this.folderKey) return undefined;
    return this.store.folders().find((f) => f.folder.uri.toString() === this.folderKey);
  }

  isOpen(): boolean {
    return !!this.panel;
  }

  /**
   * Open (or reveal) the checklist on a folder, optionally on one check. `ticks`: the session whose ticks
   * the boxes show (`follow`: the status bar's; undefined: as they were, the followed one on another folder).
   */
  show(state: FolderState, focus?: ChecklistFocus, ticks?: PinnedTicks | 'follow'): void {
    this.pendingFocus = focus;
    const otherFolder = this.folderKey !== state.folder.uri.toString();
    const pinned = ticks === 'follow' ? undefined : (ticks ?? (otherFolder ? undefined : this.pinned));
    const changedTicks = pinned?.sessionId !== this.pinned?.sessionId || !pinned !== !this.pinned;
    this.pinned = pinned;
    if (this.panel) {
      if (otherFolder || changedTicks) {
        this.folderKey = state.folder.uri.toString();
        this.postState();
      }
      this.panel.reveal(undefined, false);
      this.flushFocus();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      CHECKLIST_VIEW_TYPE,
      vscode.l10n.t('Session Ledger Checklist'),
      vscode.ViewColumn.Active,
      this.options(),
    );
    this.adopt(panel, state);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.postState();
  }

  /**
   * The outcome of a write the checklist's button started: shown under the button, which gives it the
   * focus. `decided`: the report the decision took (its state files and checks are what the result speaks of).
   */
  showResult(result: WriteResult, decided?: WorkspaceReport): void {
    if (!this.panel) return;
    const f = this.folder();
    const shown = f ? this.shownReport(f) : undefined;
    this.result = { said: result, basis: resultBasis(decided, shown), posted: false };
    this.expireResult(shown);
    this.flushResult();
  }

  private flushResult(): void {
    if (this.result && !this.result.posted && this.ready) {
      this.post({ type: 'result', result: this.result.said });
      this.result.posted = true;
    }
  }

  /** A result whose checks changed since is replaced by the past result (once). */
  private expireResult(shown: WorkspaceReport | undefined): void {
    const r = this.result;
    if (!r || r.said.kind === 'past' || resultHolds(r.basis, shown)) return;
    this.result = { said: pastResult(vscode.l10n.t), basis: r.basis, posted: false };
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
      retainContextWhenHidden: false,
    };
  }

  private adopt(panel: vscode.WebviewPanel, state: FolderState): void {
    this.panel = panel;
    this.folderKey = state.folder.uri.toString();
    this.ready = false;
    panel.webview.options = this.options();
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
    panel.webview.html = this.html(panel.webview);
    this.panelSubs = [
      panel.webview.onDidReceiveMessage((m) => this.onMessage(m)),
      panel.onDidChangeViewState((e) => {
        // A hidden webview is torn down (no retainContextWhenHidden): it says ready again when shown.
        if (!e.webviewPanel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => {
        for (const d of this.panelSubs) d.dispose();
        this.panelSubs = [];
        this.panel = undefined;
        this.folderKey = undefined;
        this.result = undefined;
        this.pinned = undefined;
        this.checksRuns.clear();
        this.ready = false;
      }),
    ];
  }

  private html(webview: vscode.Webview): string {
    return checklistPage({
      cspSource: webview.cspSource,
      script: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js')).toString(),
      language: vscode.env.language,
    });
  }

  private post(m: HostToWebview): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(m);
  }

  /** The session whose ticks the boxes show, and for which a tick is saved. */
  private ticksFor(): string | null {
    return ticksSession(this.pinned, this.store.session());
  }

  /**
   * The folder's report as the checklist shows it: with the ticks of the session it shows (the store's
   * report holds the followed session's), and the result of the repository's own checks once run.
   */
  private shownReport(f: FolderState): WorkspaceReport | undefined {
    const run = this.checksRuns.get(f.folder.uri.toString());
    const report = this.pinned && f.raw ? this.store.withTicksOf(f.raw, this.pinned.sessionId) : f.report;
    // A result exists only once a run loaded the module that runs the checks.
    return report && run?.result && this.repoChecks ? this.repoChecks.withRepoChecks(report, run.result) : report;
  }

  private postState(): void {
    const state = this.stateNow();
    if (!state) return;
    this.post({ type: 'state', state: state.state });
    // The result under the button stays true: once the checks it was given on changed, it is past.
    this.expireResult(state.report);
    this.flushResult();
  }

  /** The page's state as it is now, and the report it shows; undefined while no page can be drawn. */
  private stateNow(): { state: ChecklistState; report: WorkspaceReport | undefined } | undefined {
    const f = this.folder();
    if (!f || !this.panel || !this.ready) return undefined;
    const m = this.meter?.current();
    const mine = m && m.folder.uri.toString() === this.folderKey ? m : undefined;
    const compactions = mine ? mine.compactions : null;
    const live = mine?.others.length ? shownSession(vscode.l10n.t, mine).label : null;
    const session = ticksNote(vscode.l10n.t, this.pinned, this.store.session(), live);
    const run = this.checksRuns.get(f.folder.uri.toString());
    const report = this.shownReport(f);
    const runnable = runnableCheck(report);
    const t = vscode.l10n.t;
    const standing = this.store.standing(f.folder.uri, this.ticksFor());
    const state = checklistState(
      report,
      { name: f.folder.name, uri: f.folder.uri.toString() },
      strings(),
      {
        busy: this.busy,
        trusted: vscode.workspace.isTrusted,
        compactions,
        session,
        ticksFor: this.ticksFor(),
        markerStands: standing && markerStandsText(t, standing.marker, vscode.workspace.isTrusted),
        runChecks: runnable && {
          system: runnable.system,
          checkId: runnable.checkId,
          button: t('Run {0}', runnable.command),
          running: !!run?.running,
          runningText: t('Running {0}…', runnable.command),
          output: run?.result ? run.result.output : null,
        },
      },
      t,
    );
    return { state, report };
  }

  private flushFocus(): void {
    if (this.pendingFocus && this.ready) {
      this.post({ type: 'focusCheck', ...this.pendingFocus });
      this.pendingFocus = undefined;
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m: WebviewToHost | undefined = parseWebviewMessage(raw);
    if (!m) {
      this.log.warn('Checklist: ignored a malformed message from the webview.');
      return;
    }
    const f = this.folder();
    switch (m.type) {
      case 'ready':
        // A page drawn anew (shown again after it was hidden) holds no result: one it showed is gone with it.
        if (this.result?.posted) this.result = undefined;
        this.ready = true;
        this.postState();
        this.flushFocus();
        this.flushResult();
        return;
      case 'refresh': {
        if (!f) return;
        // Said when it is done, also when nothing changed: a press must never look like nothing happened.
        const before = this.stateNow()?.state;
        await this.store.scan(f.folder);
        const after = this.stateNow()?.state;
        this.post({ type: 'rechecked', text: recheckedText(vscode.l10n.t, before, after, Date.now()) });
        return;
      }
      case 'toggleManual': {
        const report = f?.report;
        if (!report) return;
        // A session's item (no system) is one tick for every system; a system's own item is that system's.
        const session = m.system === null;
        if (session !== isSessionItem({ id: m.checkId, severity: 'manual' })) return;
        const sys = session
          ? report.systems.find((s) => !s.skipped && s.checks.some((c) => c.id === m.checkId))
          : report.systems.find((s) => s.id === m.system);
        if (!sys || !sys.checks.some((c) => c.id === m.checkId && c.severity === 'manual')) return;
        // A tick is given for the session whose ticks the page showed: when the page shows another
        // session's since (the status bar followed another, or Checkpoint now switched it), it is not
        // moved onto that one; the page shows that session's ticks instead.
        if (m.session !== this.ticksFor()) {
          this.postState();
          return;
        }
        await this.toggle(f, report, sys, m.checkId, m.session, m.checked);
        return;
      }
      case 'open': {
        if (!f) return;
        const parts = m.path.split('/');
        if (m.path.startsWith('/') || /^[A-Za-z]:/.test(m.path) || parts.some((p) => p === '..')) return;
        await vscode.commands.executeCommand('sessionLedger.openStateFile', {
          uri: vscode.Uri.joinPath(f.folder.uri, ...parts),
          line: m.line ?? 1,
        });
        return;
      }
      case 'runChecks':
        if (f) await this.runChecks(f);
        return;
      case 'manageTrust':
        // VS Code's own trust editor: the folder is trusted there, by the user, never by this extension.
        if (!vscode.workspace.isTrusted) await vscode.commands.executeCommand(TRUST_COMMAND);
        return;
      case 'writeMarker':
        if (!f) return;
        // The page cleared the last result when its button was pressed.
        this.result = undefined;
        // Boxes switched to a session: the marker is for that one, whose ticks they show.
        await vscode.commands.executeCommand('sessionLedger.checkpointNow', {
          folderUri: f.folder.uri,
          fromChecklist: true,
          ...(this.pinned?.sessionId ? { sessionId: this.pinned.sessionId } : {}),
        });
        // The button said "busy" when pressed; whatever the command did, the page shows the state again.
        this.postState();
        return;
    }
  }

  /**
   * A manual item ticked or unticked for `session`. Ticked: it counts again, also where a checkpoint's
   * marker confirmed it before the user unticked it. Unticked: the tick given here goes, and when the
   * marker confirmed it (core `untickPlan`) the untick is kept against that marker, which the store then
   * withdraws; the marker's other items stay ticked, as ticks given here.
   */
  private async toggle(
    f: FolderState,
    report: WorkspaceReport,
    sys: SystemReport,
    checkId: string,
    session: string | null,
    checked: boolean,
  ): Promise<void> {
    const key = itemKey(sys.id, checkId);
    // The views are told once, with the last change (the item's own tick).
    const tick = async (s: SystemReport, id: string, on: boolean, fire = false) => {
      const [scope, hash] = tickPlace(report, s, id);
      await this.ticks.set(session, scope, hash, id, on, fire);
    };
    if (checked) await this.ticks.setUnticked(session, key, null, false);
    else {
      const plan = untickPlan(this.store.marked(f.folder.uri, session).ticks, key);
      for (const k of plan?.keep ?? []) {
        const [system, id] = splitItemKey(k);
        const s = report.systems.find((x) => x.id === (system ?? sys.id));
        if (s) await tick(s, id, true);
      }
      if (plan) await this.ticks.setUnticked(session, key, plan.hash, false);
    }
    await tick(sys, checkId, checked, true);
  }

  /** Run the repository's own checks on the user's click: trusted workspaces only, one run per folder at a time. */
  private async runChecks(f: FolderState): Promise<void> {
    if (!vscode.workspace.isTrusted || !runnableCheck(f.report)) return;
    const key = f.folder.uri.toString();
    const prev = this.checksRuns.get(key);
    if (prev?.running) return;
    this.checksRuns.set(key, { running: true, result: prev?.result });
    this.postState();
    // Loaded on the first click: the module that runs the checks is in the core, not needed to show the button.
    this.repoChecks ??= await import('../../core/systems/s3/repo-checks');
    const result = await this.repoChecks.runRepoChecks(f.folder.uri.fsPath);
    this.log.info(
      `${result.command} in ${f.folder.uri.fsPath}: exit ${result.code ?? result.signal}${result.timedOut ? ' (timed out)' : ''}, ${result.ms} ms.`,
    );
    this.checksRuns.set(key, { running: false, result });
    this.postState();
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.subs) d.dispose();
  }
}
