/**
 * The model store: the latest report of every workspace folder. Scans go through the core
 * (`evaluate`); views subscribe to `onDidChange` and read from here, never from disk. A scan that is
 * asked for while one runs for the same folder is coalesced into one more run afterwards.
 */
import * as vscode from 'vscode';
import { markerStand, type MarkerStand, type MarkerTicks } from '../core/checkpoint/marker-stand';
import type { SystemId, WorkspaceReport } from '../core/model/model';
import { readSettings } from './config';
import { applyTicks, homeHash, stateHash } from './pure/ticks';
import type { TickStore } from './tick-store';

/**
 * How old git's status may be when only state files changed (ms): under an agent that rewrites its
 * state file many times a second, git runs about every three seconds instead of on every re-read
 * (a spawn from the extension host costs it more CPU than the re-read itself). A state file's own
 * edit moves nothing git reports; the work files it could miss are not watched at all, so once the
 * writes stop the folder is read once more with git run again (`GIT_FRESH_MS`).
 */
const GIT_REUSE_MS = 3000;
/** Quiet after re-reads that took git's status from an earlier run, before one read with git run again (ms). */
const GIT_FRESH_MS = 1000;

export interface FolderState {
  folder: vscode.WorkspaceFolder;
  /** The report with the manual ticks applied; undefined until the first scan finished. */
  report?: WorkspaceReport;
  /** The report as the core returned it (no ticks). */
  raw?: WorkspaceReport;
  /** Set when the last scan failed. */
  error?: string;
  /** When the last scan finished (ms). */
  scannedAt?: number;
  /** How many scans of the folder finished. */
  scans?: number;
}

interface Entry extends FolderState {
  running?: Promise<void>;
  again?: boolean;
  /** Paths (relative to the folder) changed since the last read began; 'all' reads every system. */
  changed?: Set<string> | 'all';
  /** A read again of systems held while their files were being written. */
  recheck?: ReturnType<typeof setTimeout>;
  /** A read with git run again, after re-reads that may have taken git's status from an earlier run. */
  fresh?: ReturnType<typeof setTimeout>;
  /** The ticks the checkpoint's marker gives the session, for the report read (its `stateHash`): see `markerTicks`. */
  marked?: {
    sessionId: string;
    hash: string;
    ticks: MarkerTicks;
    /** The marker stands on items the user unticked: it was not withdrawn (Restricted Mode, or it failed). */
    stands: boolean;
  };
}

export class LedgerStore implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.WorkspaceFolder | undefined>();
  /** Fires with the folder whose report changed (undefined: folders added or removed). */
  readonly onDidChange = this._onDidChange.event;
  private sessionId: string | null = null;
  private resolveReady!: () => void;
  /** Resolves when the first scan of every folder present at start finished. */
  readonly ready: Promise<void> = new Promise((r) => (this.resolveReady = r));
  private started = false;
  /** The first report of any folder put into the store, and when (performance.now()): first results without git's facts when `report.gitPending`. */
  firstShown: { at: number; report: WorkspaceReport } | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly ticks: TickStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs.push(
      ticks.onDidChange(() => {
        this.reapplyTicks();
        // An item unticked that a checkpoint's marker confirmed: read again, which withdraws the marker.
        for (const e of this.entries.values()) if (this.stand(e).unticked.length) void this.scan(e.folder);
      }),
      // Trust granted: read again, now with git.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refreshAll()),
    );
  }

  /** Start scanning (called once, after activation returned). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const first = folders.map((f) => this.add(f));
    Promise.allSettled(first).then(() => this.resolveReady());
    this.subs.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) {
          clearTimeout(this.entries.get(f.uri.toString())?.recheck);
          clearTimeout(this.entries.get(f.uri.toString())?.fresh);
          this.entries.delete(f.uri.toString());
        }
        for (const f of e.added) void this.add(f);
        this._onDidChange.fire(undefined);
      }),
    );
  }

  /** Every folder, in workspace order. */
  folders(): FolderState[] {
    const order = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    return [...this.entries.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([, e]) => e);
  }

  /** The state of the folder holding `uri` (default: the first folder). */
  folder(uri?: vscode.Uri): FolderState | undefined {
    if (!uri) return this.folders()[0];
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f ? this.entries.get(f.uri.toString()) : this.entries.get(uri.toString());
  }

  report(uri?: vscode.Uri): WorkspaceReport | undefined {
    return this.folder(uri)?.report;
  }

  /** The agent session the manual ticks belong to. */
  setSession(id: string | null): void {
    if (id === this.sessionId) return;
    this.sessionId = id;
    this.reapplyTicks();
    // The checkpoint's marker of this session may confirm its items: read, then shown.
    for (const e of this.entries.values())
      if (e.raw)
        void this.readMarked(e, e.raw).then(() => {
          if (this.sessionId === id && e.marked?.sessionId === id) this.reapplyTicks();
        });
  }

  /**
   * What the marker of the session the views follow confirms on `raw` (the core decides whether it
   * may: `markerTicks`), kept for the entry. A marker that confirmed an item the user unticked since is
   * withdrawn first (`markerStand`): removed, so the guard stops /compact until a new checkpoint; not in
   * Restricted Mode, where the extension writes nothing (every surface then says it still stands).
   */
  private async readMarked(e: Entry, raw: WorkspaceReport): Promise<void> {
    const sessionId = this.sessionId;
    const root = e.folder.uri.fsPath;
    const core = await import('../core/checkpoint/marker-ticks');
    let ticks = sessionId ? await core.markerTicks(root, sessionId, raw) : null;
    const unticked = ticks ? markerStand(ticks, (h) => this.ticks.unticked(sessionId, h)).unticked : [];
    // The marker that still stands on unticked items, once it was not withdrawn (Restricted Mode, a failure).
    let stands = unticked.length ? ticks?.hash : undefined;
    if (ticks && unticked.length && vscode.workspace.isTrusted) {
      const { marker } = ticks;
      try {
        const done = await core.withdrawMarker(root, ticks);
        stands = undefined;
        this.log.info(
          done === 'withdrawn'
            ? `${e.folder.name}: ${marker} withdrawn: ${unticked.join(', ')} unticked after the checkpoint confirmed it; /compact is stopped until the next checkpoint.`
            : `${e.folder.name}: ${marker} not withdrawn: another checkpoint wrote it since.`,
        );
        ticks = await core.markerTicks(root, sessionId, raw);
      } catch (err) {
        this.log.warn(`${e.folder.name}: ${marker} could not be withdrawn: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    if (sessionId !== this.sessionId) return;
    e.marked =
      ticks && sessionId ? { sessionId, hash: stateHash(raw), ticks, stands: stands === ticks.hash } : undefined;
  }

  /** The marker ticks of `e` for `sessionId` on `report`, with the user's unticks taken off (`markerStand`). */
  private stand(e: Entry, sessionId = this.sessionId, report = e.raw): MarkerStand {
    const m = e.marked;
    const ok = m && report && sessionId && m.sessionId === sessionId && m.hash === stateHash(report);
    return markerStand(ok ? m.ticks : null, (h) => this.ticks.unticked(sessionId, h));
  }

  /** The marker ticks the checklist's boxes of `uri`'s folder show for `sessionId` (`markerStand`): what an untick there changes. */
  marked(uri: vscode.Uri | undefined, sessionId: string | null): MarkerStand {
    const e = this.entryOf(uri);
    return e ? this.stand(e, sessionId) : markerStand(null, () => []);
  }

  /**
   * The marker that still lets /compact through for `sessionId` in `uri`'s folder although the user
   * unticked items it confirmed (it could not be withdrawn: Restricted Mode, or the removal failed), with
   * those items; null when none stands. While the store withdraws one, none is said to stand.
   */
  standing(uri: vscode.Uri | undefined, sessionId: string | null): { marker: string; unticked: string[] } | null {
    const e = this.entryOf(uri);
    const st = e?.marked?.stands ? this.stand(e, sessionId) : null;
    return st?.marker && st.unticked.length ? { marker: st.marker, unticked: st.unticked } : null;
  }

  private entryOf(uri: vscode.Uri | undefined): Entry | undefined {
    const f = this.folder(uri);
    return f && this.entries.get(f.folder.uri.toString());
  }

  session(): string | null {
    return this.sessionId;
  }

  private add(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    if (!this.entries.has(key)) this.entries.set(key, { folder });
    if (folder.uri.scheme !== 'file') {
      this.log.info(`Skipping ${key}: only folders on the local file system are read.`);
      return Promise.resolve();
    }
    return this.scan(folder);
  }

  /**
   * Re-read one folder through the core: only the systems `changed` (paths relative to the folder)
   * touch, every system without it. Concurrent requests coalesce into one more read.
   */
  scan(folder: vscode.WorkspaceFolder, changed?: readonly string[]): Promise<void> {
    const e = this.entries.get(folder.uri.toString());
    if (!e || folder.uri.scheme !== 'file') return Promise.resolve();
    if (!changed || e.changed === 'all') e.changed = 'all';
    else e.changed = new Set([...(e.changed ?? []), ...changed]);
    if (e.running) {
      e.again = true;
      return e.running;
    }
    const run = async (): Promise<void> => {
      do {
        e.again = false;
        await this.scanOnce(e);
      } while (e.again && this.entries.get(folder.uri.toString()) === e);
    };
    e.running = run().finally(() => (e.running = undefined));
    return e.running;
  }

  /** Re-read every folder. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.folders().map((f) => this.scan(f.folder)));
  }

  private async scanOnce(e: Entry): Promise<void> {
    const t0 = Date.now();
    const changed = e.changed === 'all' || !e.changed ? undefined : [...e.changed];
    e.changed = undefined;
    if (e.recheck) clearTimeout(e.recheck);
    e.recheck = undefined;
    clearTimeout(e.fresh);
    e.fresh = undefined;
    try {
      const [{ evaluateChanged }, { settledRead }] = await Promise.all([
        import('../core/report/evaluate'),
        import('../core/report/settle'),
      ]);
      const settings = readSettings(e.folder.uri);
      // Restricted Mode spawns no process: no git (the repository's config could name a command), and
      // no configured extra paths (a workspace setting is repository content too).
      const trusted = vscode.workspace.isTrusted;
      // A folder's first scan shows its first results as soon as the documents are checked, while
      // git's run is still out (the report says so, and no system is WORKING before git's answer).
      const first = e.raw ? undefined : (r: WorkspaceReport) => this.publish(e, r);
      // A burst that changed state files only reuses git's status from up to GIT_REUSE_MS ago.
      const options = trusted
        ? { extraPaths: settings.extraStatePaths, onGitPending: first, stateOnlyGitMaxAgeMs: GIT_REUSE_MS }
        : { noGit: 'restricted' as const };
      const root = e.folder.uri.fsPath;
      const prev = e.raw?.gitPending ? undefined : e.raw;
      // A file that does not parse while it is being written is read again; still unparsed, the
      // system's last good report stays (marked updating) and the folder is read again once it is quiet.
      const { report: raw, recheckAt } = await settledRead(root, prev, () =>
        evaluateChanged(root, options, prev, changed),
      );
      await this.readMarked(e, raw);
      this.publish(e, raw, false);
      // A re-read of some systems may have reused git's status: once the folder is quiet, read it all with git run again.
      if (changed && trusted) e.fresh = setTimeout(() => void this.scan(e.folder), GIT_FRESH_MS);
      if (recheckAt !== undefined) {
        e.recheck = setTimeout(() => void this.scan(e.folder), Math.max(0, recheckAt - Date.now()) + 50);
        this.log.debug(
          `${e.folder.name}: ${raw.systems
            .filter((s) => s.updating)
            .map((s) => s.id)
            .join(
              ', ',
            )} being written; shown as last read, read again in ${Math.max(0, recheckAt - Date.now()) + 50} ms`,
        );
      }
      this.log.debug(
        `Scanned ${e.folder.name}${changed ? ` (${changed.join(', ')})` : ''} in ${Date.now() - t0} ms: ${raw.systems.map((s) => `${s.id} ${s.label}${s.updating ? ' (updating)' : ''}`).join(', ') || 'nothing detected'}`,
      );
    } catch (err) {
      e.error = (err as Error)?.message ?? String(err);
      this.log.error(`Scan of ${e.folder.name} failed: ${e.error}`);
      // First results whose scan failed are not kept: their pending checks would wait forever.
      if (e.raw?.gitPending) e.raw = e.report = undefined;
    }
    e.scannedAt = Date.now();
    e.scans = (e.scans ?? 0) + 1;
    if (this.entries.get(e.folder.uri.toString()) === e) this._onDidChange.fire(e.folder);
  }

  /** Put a report into the store (firing, for the first results; the full report fires once its scan ends). */
  private publish(e: Entry, raw: WorkspaceReport, fire = true): void {
    e.raw = raw;
    e.report = this.withTicks(raw);
    e.error = undefined;
    this.firstShown ??= { at: performance.now(), report: raw };
    if (fire && this.entries.get(e.folder.uri.toString()) === e) this._onDidChange.fire(e.folder);
  }

  /** The views' report: the ticks of the session the status bar follows. */
  private withTicks(raw: WorkspaceReport): WorkspaceReport {
    return this.withTicksOf(raw, this.sessionId);
  }

  /**
   * A report with the manual ticks given for `sessionId` (null: no session known), whichever session
   * the views follow: those given in the checklist, and those its checkpoint's marker confirmed for the
   * state files as they are (`markerTicks`).
   */
  withTicksOf(report: WorkspaceReport, sessionId: string | null): WorkspaceReport {
    const hash = stateHash(report);
    const marked = [...this.entries.values()].map((e) => this.stand(e, sessionId, report).ticks).find(Boolean);
    const add = (given: ReadonlySet<string>, more: readonly string[] | undefined) =>
      more?.length ? new Set([...given, ...more]) : given;
    return applyTicks(report, {
      session: add(this.ticks.get(sessionId, 'session', hash), marked?.session),
      system: (s) => add(this.ticks.get(sessionId, s.id, homeHash(s)), marked?.systems[s.id as SystemId]),
    });
  }

  private reapplyTicks(): void {
    for (const e of this.entries.values()) {
      if (!e.raw) continue;
      e.report = this.withTicks(e.raw);
      this._onDidChange.fire(e.folder);
    }
  }

  dispose(): void {
    this._onDidChange.dispose();
    for (const s of this.subs) s.dispose();
    for (const e of this.entries.values()) {
      clearTimeout(e.recheck);
      clearTimeout(e.fresh);
    }
    this.entries.clear();
  }
}
