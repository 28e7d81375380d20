/**
 * What the PreCompact guard would say right now for the session the meter follows: the core's own
 * `preCompactGuard` run read-only (no hook log) with the marker max age from the settings. Shown in
 * the status bar tooltip; recomputed when the folder's files or the session change.
 *
 * It is also the status item's one source: `onDidChangeStatus` fires the meter's figure and the
 * guard's verdict together, whenever either changes, so the item renders one state from one event.
 */
import * as vscode from 'vscode';
import { readSettings } from '../config';
import {
  blockingOf,
  guardViewOf,
  turnUnread,
  verdictEndsAt,
  type BlockingView,
  type GuardView,
} from '../pure/status-text';
import type { LedgerStore } from '../store';
import type { MeterState, SessionMeter } from './session-meter';

/** What the status item shows: the meter's figure and the guard's verdict for the same session. */
export interface StatusState {
  meter: MeterState | undefined;
  guard: GuardView | undefined;
  /** The blocking checks that fail now in the session's folder (core `blockingChecks`): a checkpoint would be refused. */
  blocking: BlockingView[];
}

export class GuardPreview implements vscode.Disposable {
  private readonly _onDidChangeStatus = new vscode.EventEmitter<StatusState>();
  /** The meter's figure or the guard's verdict changed: both, as they are now. */
  readonly onDidChangeStatus = this._onDidChangeStatus.event;
  private view: GuardView | undefined;
  private blocking: BlockingView[] = [];
  private key = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Computes the verdict again when it changes with time alone (a fresh marker growing too old). */
  private expiry: ReturnType<typeof setTimeout> | undefined;
  private readonly subs: vscode.Disposable[];
  private seq = 0;

  constructor(
    private readonly store: LedgerStore,
    private readonly meter: SessionMeter,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs = [
      meter.onDidChange((s) => {
        const k = s ? `${s.folder.uri.toString()}|${s.ref.agent}|${s.ref.sessionId}` : '';
        if (k !== this.key) {
          this.key = k;
          // The verdict was another session's: none until this one's is computed.
          this.view = undefined;
          this.blocking = [];
          this.schedule();
        } else if (turnUnread(this.view, s?.usage)) {
          // A figure that may be of the checkpoint's own turn: the transcript is read again for it.
          this.schedule();
        }
        this._onDidChangeStatus.fire(this.status());
      }),
      store.onDidChange((f) => {
        const s = meter.current();
        if (s && (!f || f.uri.toString() === s.folder.uri.toString())) this.schedule();
      }),
    ];
  }

  current(): GuardView | undefined {
    return this.view;
  }

  /** The meter's figure and the guard's verdict, as the status item shows them. */
  status(): StatusState {
    return { meter: this.meter.current(), guard: this.view, blocking: this.blocking };
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.compute(this.meter.current()), 200);
  }

  private async compute(s: MeterState | undefined): Promise<void> {
    const seq = ++this.seq;
    let next: GuardView | undefined;
    // What a checkpoint decides on: the store's report of the folder, current on every store change.
    const blocking = blockingOf(s ? this.store.report(s.folder.uri) : undefined);
    // The PreCompact guard of the session's own client: Claude Code's hook for a Claude session, Codex
    // CLI's (the same guard, its thread's marker) for a Codex one.
    if (s && s.ref.sessionId) {
      try {
        const settings = readSettings(s.folder.uri);
        const max = settings.markerMaxAgeMinutes;
        const env = { ...process.env };
        if (max !== null) env.SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN = String(max);
        // The core decides: the guard installed for the session's client, a setting of Claude Code's that
        // stops it, the guard's verdict. The store's report of this folder is current (the preview
        // recomputes on every store change): no second evaluation.
        const { guardState } = await import('../../core/hooks/guard-state');
        const g = await guardState(
          s.folder.uri.fsPath,
          { agent: s.ref.agent, sessionId: s.ref.sessionId, transcript: s.ref.path },
          {
            env,
            claudeHome: settings.claudeHome,
            codexHome: settings.codexHome,
            report: this.store.report(s.folder.uri),
            noGit: !vscode.workspace.isTrusted,
            turns: true,
          },
        );
        const d = g.decision;
        // A marker whose confirmed items the user unticked since, not withdrawn: no checkpoint done on it.
        const stand = this.store.standing(s.folder.uri, s.ref.sessionId);
        const unticked = stand && d.allow && d.marker === stand.marker ? stand.unticked : undefined;
        next = guardViewOf({ ...d, unticked }, g.installed, g.maxAgeMin);
        if (g.stopped) next.stopped = g.stopped;
        // Claude Code's figure reaches the meter through the relay: a local status line that hides it is said.
        if (g.claude) {
          const { relayHidden } = await import('../../core/hooks/install');
          const hidden = await relayHidden(s.folder.uri.fsPath);
          if (hidden) next.relayHidden = hidden;
          // A setting of Claude Code's own that keeps it from showing the relay.
          const { relayInstalled } = await import('../pure/walkthrough-facts');
          if (!g.stopped && g.claude.relay && (await relayInstalled(s.folder.uri.fsPath)))
            next.relayStopped = g.claude.relay;
        }
      } catch (err) {
        this.log.warn(`Guard preview: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    if (seq !== this.seq) return;
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = undefined;
    const ends = next ? verdictEndsAt(next) : null;
    // A second past the end; a timer can wait at most 2^31 - 1 ms (about 24 days), then it looks again.
    if (ends !== null)
      this.expiry = setTimeout(() => this.schedule(), Math.min(Math.max(ends - Date.now(), 0) + 1000, 2 ** 31 - 1));
    if (JSON.stringify([next, blocking]) === JSON.stringify([this.view, this.blocking])) return;
    this.view = next;
    this.blocking = blocking;
    this._onDidChangeStatus.fire(this.status());
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.expiry) clearTimeout(this.expiry);
    for (const d of this.subs) d.dispose();
    this._onDidChangeStatus.dispose();
  }
}
