/**
 * Follows this workspace's newest agent session: finds it (core `findSessions`), follows its
 * transcript (core `ContextFollower`: the tail once, then only appended bytes), and publishes the
 * figure with the threshold profile of the detected system. Watches the transcript's folder; a
 * cheap timer re-checks too (a stat when nothing changed), because watchers outside the workspace
 * are not reliable everywhere.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { ContextFollower as Follower, SessionRef } from '../../core/context';
import type { RecentSession } from '../../core/context/sessions';
import type { ContextUsage } from '../../core/model/model';
import type { CompactionsAdvice } from '../../core/context/compactions';
import { onDidChangeSettings, readSettings } from '../config';
import { KeyedDebouncer } from '../pure/debounce';
import { chooseShownSession, shownSessionText, type LiveSession, type ShownBy } from '../pure/session-pick';
import type { T } from '../pure/tree-text';
import { invertedText, type MeterLevel, type MeterProfile } from '../pure/status-text';
import { activeTerminalProcesses, withRecordedPids } from '../terminals';
import type { LedgerStore } from '../store';

export interface MeterState {
  folder: vscode.WorkspaceFolder;
  ref: SessionRef;
  /** The other live sessions of the folder (several agents at once), newest first. */
  others: LiveSession[];
  /** With other live sessions: how the one shown was chosen (by the active terminal's processes, its client, or the newest); else null. */
  shownBy: ShownBy | null;
  usage: ContextUsage | null;
  profile: MeterProfile;
  level: MeterLevel;
  /** Claude Code: compactions of this session so far (core `countCompactions`, incremental); null otherwise. */
  compactions: number | null;
  /** The advice after N compactions of a detected, switched-on system whose seed gives one (S0's), or null. */
  advice: CompactionsAdvice | null;
  /** The session window (minutes, core `sessionWindowMinutes`): a session that wrote nothing within it is not running. */
  windowMinutes: number;
}

/** Which session the meter shows and how it was chosen, in words (tooltip line and plain sentence). */
export function shownSession(t: T, s: MeterState): ReturnType<typeof shownSessionText> {
  return shownSessionText(
    t,
    { agent: s.ref.agent, sessionId: s.usage?.sessionId ?? s.ref.sessionId },
    s.shownBy ?? 'newest',
  );
}

const READ_MS = 2000;
const DISCOVER_MS = 10_000;
const DEBOUNCE_MS = 150;
const MAX_WAIT_MS = 400;

export class SessionMeter implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<MeterState | undefined>();
  readonly onDidChange = this._onDidChange.event;
  private state: MeterState | undefined;
  private follower: Follower | undefined;
  private followerKey = '';
  private watcher: vscode.Disposable[] = [];
  private watchedDir = '';
  private readonly subs: vscode.Disposable[] = [];
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private busy: Promise<void> | undefined;
  private again = false;
  private disposed = false;
  private others: LiveSession[] = [];
  private shownBy: ShownBy | null = null;
  /** Compactions counted per transcript, and the count under way. */
  private readonly counts = new Map<string, number>();
  private counting: Promise<void> | undefined;
  /** Transcript changes and the folder's re-reads: read again after a short quiet, and at the latest after MAX_WAIT_MS of steady changes. */
  private readonly pokes = new KeyedDebouncer<'read'>(DEBOUNCE_MS, MAX_WAIT_MS);
  /** A poke of the current burst asked to look for the newest session again. */
  private pokedDiscover = false;

  constructor(
    private readonly store: LedgerStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Resolves when the first session lookup (and read) after the first scan finished. */
  firstRead: Promise<void> = Promise.resolve();

  current(): MeterState | undefined {
    return this.state;
  }

  start(): void {
    this.subs.push(
      onDidChangeSettings(() => {
        this.followerKey = '';
        void this.refresh();
      }),
      // A re-read of the folder (the detected systems decide the thresholds) joins the transcript's next read.
      this.store.onDidChange(() => this.poke(false)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()),
      // With several live sessions, the one in the active terminal is shown: follow the focus.
      vscode.window.onDidChangeActiveTerminal(() => {
        if (this.others.length) void this.refresh();
      }),
    );
    // The first figure waits for the first scan, so its thresholds are the detected system's.
    this.firstRead = this.store.ready.then(() => {
      if (this.disposed) return;
      this.timers.push(
        setInterval(() => void this.update(false), READ_MS),
        setInterval(() => void this.update(true), DISCOVER_MS),
      );
      return this.update(true);
    });
  }

  /** Find the newest session again and read it. */
  refresh(): Promise<void> {
    return this.update(true);
  }

  private update(discover: boolean): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.busy) {
      this.again ||= discover;
      return this.busy;
    }
    this.busy = (async () => {
      try {
        await this.run(discover);
        while (this.again && !this.disposed) {
          this.again = false;
          await this.run(true);
        }
      } catch (err) {
        this.log.warn(`Context meter: ${(err as Error)?.message ?? String(err)}`);
      } finally {
        this.busy = undefined;
      }
    })();
    return this.busy;
  }

  private async run(discover: boolean): Promise<void> {
    const ctx = await import('../../core/context');
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    let folder = this.state?.folder;
    let ref = this.state?.ref;
    // Without a session, only the slower discovery timer looks for one.
    if (!discover && (!ref || !folder)) return;
    if (discover) {
      let best: { folder: vscode.WorkspaceFolder; ref: SessionRef } | undefined;
      for (const f of folders) {
        const s = readSettings(f.uri);
        const refs = await ctx
          .findSessions(f.uri.fsPath, {
            claudeHome: s.claudeHome,
            codexHome: s.codexHome,
            windowTokens: s.contextWindow ?? undefined,
          })
          .catch(() => []);
        if (refs[0] && (!best || refs[0].mtime > best.ref.mtime)) best = { folder: f, ref: refs[0] };
      }
      folder = best?.folder;
      ref = best?.ref;
      this.others = [];
      this.shownBy = null;
      if (folder) {
        // The core's one rule of which sessions run (the checkpoint's): a session /clear replaced is not
        // shown; the one it started is, also before it wrote anything.
        const s = readSettings(folder.uri);
        const { followedSession } = await import('../../core/checkpoint/live');
        const followed = await followedSession(folder.uri.fsPath, ref ?? null, {
          claudeHome: s.claudeHome,
          codexHome: s.codexHome,
        }).catch(() => undefined);
        if (followed?.ref) ref = followed.ref;
        const several = await this.pickAmongLive(folder, ctx, followed?.live.live ?? [], s);
        if (several) {
          ref = several.ref;
          this.others = several.others;
          this.shownBy = several.others.length ? several.by : null;
        }
      }
    }
    if (!folder || !ref) {
      this.setFollower(undefined, undefined);
      this.publish(undefined);
      return;
    }
    const s = readSettings(folder.uri);
    const key = `${ref.agent}|${ref.path}|${folder.uri.toString()}|${s.claudeHome}|${s.codexHome}|${s.contextWindow}`;
    if (key !== this.followerKey || !this.follower) {
      this.followerKey = key;
      this.follower = new ctx.ContextFollower(ref, {
        root: folder.uri.fsPath,
        claudeHome: s.claudeHome,
        codexHome: s.codexHome,
        windowTokens: s.contextWindow ?? undefined,
      });
      this.log.info(
        `Following ${ref.agent} session ${ref.sessionId ?? '(no id)'}: ${ref.path || '(no transcript yet)'}`,
      );
      // A session known only from its start record may name no transcript path yet: nothing to watch then.
      this.watchDir(ref.path ? path.dirname(ref.path) : '');
    }
    const usage = await this.follower.read();
    const profile = await this.profileFor(folder, s);
    const level = usage ? ctx.levelOf(usage.percent, profile) : 'ok';
    this.store.setSession(usage?.sessionId ?? ref.sessionId);
    // The figure does not wait for the compactions count (a forward pass over the whole transcript the
    // first time): the count known so far is shown, and the new one follows when counted.
    const compactions = ref.agent === 'claude' ? (this.counts.get(ref.path) ?? null) : null;
    const on = (this.store.report(folder.uri)?.systems ?? []).filter((x) => !x.skipped).map((x) => x.id);
    const advice = (await import('../../core/context/compactions')).compactionsAdviceOf(on);
    const windowMinutes = (await import('../../core/context/sessions')).sessionWindowMinutes(process.env);
    this.publish({
      folder,
      ref,
      usage,
      profile,
      level,
      others: this.others,
      shownBy: this.shownBy,
      compactions,
      advice,
      windowMinutes,
    });
    if (ref.agent === 'claude') this.countCompactions(ref.path);
  }

  /** Count the compactions of `file` (only what was appended since the last count) outside the figure's path, then show the count. */
  private countCompactions(file: string): void {
    if (this.counting) return;
    this.counting = (async () => {
      try {
        const { count } = await (await import('../../core/context/compactions')).countCompactions(file);
        if (this.counts.size > 16) this.counts.clear();
        this.counts.set(file, count);
        const s = this.state;
        if (!this.disposed && s && s.ref.path === file && s.compactions !== count)
          this.publish({ ...s, compactions: count });
      } catch (err) {
        this.log.warn(`Context meter: counting compactions: ${(err as Error)?.message ?? String(err)}`);
      } finally {
        this.counting = undefined;
      }
    })();
  }

  /**
   * Several sessions of the folder run (two agents, or two terminals; `live`, as the core counts them):
   * the one running under the active terminal is shown — told by process: the agent process its
   * SessionStart hook recorded is alive under the terminal's shell, or an agent process there names it —
   * else the newest of the client the terminal runs, else the newest (said so in the item).
   */
  private async pickAmongLive(
    folder: vscode.WorkspaceFolder,
    ctx: typeof import('../../core/context'),
    live: readonly RecentSession[],
    s: ReturnType<typeof readSettings>,
  ): Promise<{ ref: SessionRef; others: LiveSession[]; by: ShownBy } | undefined> {
    if (live.length < 2) return undefined;
    const sessions = await withRecordedPids(folder.uri.fsPath, live).catch(() => live.map((x) => ({ ...x, pids: [] })));
    const active = await activeTerminalProcesses(sessions).catch(() => undefined);
    const pick = chooseShownSession(sessions, active?.procs, Date.now());
    if (!pick) return undefined;
    // A session /clear started that wrote nothing yet has no transcript: its start record says where it will be.
    const { refOfLive } = await import('../../core/checkpoint/live');
    const ref =
      (await ctx.refForTranscript(pick.shown.transcriptPath, pick.shown.agent)) ??
      (await refOfLive(folder.uri.fsPath, pick.shown, { claudeHome: s.claudeHome, codexHome: s.codexHome }));
    return { ref, others: pick.others, by: pick.by };
  }

  private async profileFor(folder: vscode.WorkspaceFolder, s: ReturnType<typeof readSettings>): Promise<MeterProfile> {
    const { thresholdProfile } = await import('../../core/context');
    const ids = (this.store.report(folder.uri)?.systems ?? []).map((x) => x.id);
    const p = thresholdProfile(ids, { profile: s.profile, propose: s.propose, urgent: s.urgent });
    this.warnInverted(p);
    return p;
  }

  /** The marks as set when they were last said to be inverted ('' when they are not). */
  private warnedInverted = '';

  /**
   * Settings that put the proposal above the urgent mark take effect read the other way round: said once
   * in a warning (again only after the marks were set otherwise), and in the tooltip while they hold.
   */
  private warnInverted(p: MeterProfile): void {
    const key = p.inverted ? `${p.inverted.propose}/${p.inverted.urgent}` : '';
    if (key === this.warnedInverted) return;
    this.warnedInverted = key;
    if (!p.inverted) return;
    const t = quotedT(vscode.l10n.t);
    const open = t('Open Settings');
    this.log.warn(
      `Thresholds inverted in the settings (propose ${p.inverted.propose}, urgent ${p.inverted.urgent}): read as ${p.propose} / ${p.urgent}.`,
    );
    void vscode.window.showWarningMessage(invertedText(t, p.inverted), open).then((pick) => {
      if (pick === open)
        void vscode.commands.executeCommand('workbench.action.openSettings', 'sessionLedger.thresholds');
    });
  }

  private setFollower(f: Follower | undefined, key: string | undefined): void {
    this.follower = f;
    this.followerKey = key ?? '';
    if (!f) this.watchDir('');
  }

  /** Watch the transcript's folder: growth re-reads (debounced), a new file re-discovers. */
  private watchDir(dir: string): void {
    if (dir === this.watchedDir) return;
    for (const d of this.watcher) d.dispose();
    this.watcher = [];
    this.watchedDir = dir;
    if (!dir) return;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), '*.jsonl'));
    this.watcher.push(
      w,
      w.onDidChange(() => this.poke(false)),
      w.onDidCreate(() => this.poke(true)),
      w.onDidDelete(() => this.poke(true)),
    );
  }

  /** Read again soon (debounced with every other poke; `discover`: look for the newest session too). */
  private poke(discover: boolean): void {
    this.pokedDiscover ||= discover;
    this.pokes.run('read', () => {
      const again = this.pokedDiscover;
      this.pokedDiscover = false;
      void this.update(again);
    });
  }

  private publish(next: MeterState | undefined): void {
    const prev = this.state;
    this.state = next;
    const same =
      prev === next ||
      (!!prev &&
        !!next &&
        prev.ref.path === next.ref.path &&
        prev.level === next.level &&
        prev.shownBy === next.shownBy &&
        prev.others.map((o) => o.transcriptPath).join('|') === next.others.map((o) => o.transcriptPath).join('|') &&
        prev.compactions === next.compactions &&
        prev.advice?.system === next.advice?.system &&
        JSON.stringify(prev.usage) === JSON.stringify(next.usage) &&
        JSON.stringify(prev.profile) === JSON.stringify(next.profile));
    if (!same) this._onDidChange.fire(next);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers) clearInterval(t);
    this.pokes.dispose();
    for (const d of [...this.watcher, ...this.subs]) d.dispose();
    this._onDidChange.dispose();
  }
}
