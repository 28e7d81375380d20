/**
 * Watchers on what git's facts rest on, per workspace folder, so the checks that read them (`fresh`,
 * `work-explained`, S3's Branch / HEAD and `debt`, the guard's view of a tracked shared marker) follow
 * a commit, a checkout, a reset, a stage or an edit of a work file without a Refresh. Two sources feed
 * a re-read of every system of the folder with git run again (the store's `scan`):
 *
 * - direct directory watches (`fs.watch`) on the files git's answer rests on (core/git/watched.ts:
 *   HEAD, the index, the branch's ref, packed refs, a `.git` file, wherever the git dir lies); planned
 *   again after each burst, so a branch switch or a moved worktree watches its new files;
 * - VS Code's watcher of the folder (the workbench already watches it, `files.watcherExclude` applies)
 *   for the work tree: a file saved, made or removed outside git's own folders and the state files,
 *   which the state watchers (./watch.ts) read.
 *
 * A commit or a rebase writes many files at once: git events are read once the burst is quiet
 * (`GIT_QUIET_MS`), at the latest `GIT_MAX_WAIT_MS` after its first event, and at most once in that
 * while (a rebase's commits come a tenth of a second apart, each gap longer than the quiet time).
 * Work files change on every save (an editor's auto save while typing, an agent's edits): their
 * re-read waits longer (`WORK_QUIET_MS`), and comes at most once in `WORK_MAX_WAIT_MS` and at the
 * latest that long after the first save, however the saves come. No timer runs while nothing
 * changes. A folder where no system is detected is not read again for either, nor one whose changed
 * work files git all ignores (asked once per path with `git check-ignore`; an ignored folder answers
 * for what is below it): a build's output or a log written all day costs no read of the folder.
 *
 * In Restricted Mode nothing is watched here (the checks that need git are skipped, and no git runs);
 * the watches start when the workspace is trusted.
 */
import { statSync, watch as fsWatch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceReport } from '../core/model/model';
import { onDidChangeSettings, readSettings } from './config';
import { Disposable } from './dispose';
import { KeyedDebouncer } from './pure/debounce';
import {
  GIT_MAX_WAIT_MS,
  GIT_QUIET_MS,
  WORK_MAX_WAIT_MS,
  WORK_QUIET_MS,
  type GitEventContext,
  type IgnoredPaths,
} from './pure/git-events';
import type { LedgerStore } from './store';

type Modules = {
  gitWatches: typeof import('../core/git/watched').gitWatches;
  ignoredByGit: typeof import('../core/git/git').ignoredByGit;
  events: typeof import('./pure/git-events');
  watchGlobs: typeof import('./pure/globs').watchGlobs;
  markerGlob: string;
};

interface DirWatch {
  watcher: FSWatcher;
  names: Set<string>;
  /** The folder's inode when its watch began: a folder made again needs a watch of its own. */
  ino: number;
}

interface FolderGit {
  folder: vscode.WorkspaceFolder;
  /** What an event is judged by; its git files and folders change with each plan. */
  ctx: GitEventContext;
  /** The state globs of the folder (the facts table's, the markers, its extra state paths). */
  globs: string[];
  /** The state test before the folder's first report: its globs alone. */
  noReportTest?: (rel: string) => boolean;
  dirs: Map<string, DirWatch>;
  subs: vscode.Disposable[];
  /** The plan running or last run: plans run one after another. */
  planning: Promise<void>;
  /** The work files changed since the folder was last read (relative, `/`-separated). */
  work: Set<string>;
  /** What git said it ignores of them, so far. */
  ignored: IgnoredPaths;
  disposed: boolean;
}

export class GitWatchers extends Disposable {
  private readonly perFolder = new Map<string, FolderGit>();
  /** A folder is read for git's files at most once in GIT_MAX_WAIT_MS, for work files at most once in WORK_MAX_WAIT_MS. */
  private readonly gitBursts = this._register(
    new KeyedDebouncer<string>(GIT_QUIET_MS, GIT_MAX_WAIT_MS, GIT_MAX_WAIT_MS),
  );
  private readonly workBursts = this._register(
    new KeyedDebouncer<string>(WORK_QUIET_MS, WORK_MAX_WAIT_MS, WORK_MAX_WAIT_MS),
  );
  /** The state test of each report, made once per report (and again once the settings change). */
  private stateTests = new WeakMap<WorkspaceReport, (rel: string) => boolean>();
  private modules: Modules | undefined;
  private started = false;

  constructor(
    private readonly store: LedgerStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    // Every folder's watches go with the object.
    this._register({ dispose: () => [...this.perFolder.values()].forEach((fg) => this.unwatch(fg.folder)) });
  }

  /** Start watching every folder; in Restricted Mode, once the workspace is trusted. */
  async start(): Promise<void> {
    if (this.started || this.isDisposed) return;
    if (!vscode.workspace.isTrusted) {
      this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.start()));
      return;
    }
    this.started = true;
    const [{ gitWatches }, { ignoredByGit }, events, { watchGlobs }, { SHARED_MARKER_REL }] = await Promise.all([
      import('../core/git/watched'),
      import('../core/git/git'),
      import('./pure/git-events'),
      import('./pure/globs'),
      import('../core/checkpoint/marker'),
    ]);
    if (this.isDisposed) return;
    this.modules = { gitWatches, ignoredByGit, events, watchGlobs, markerGlob: `${SHARED_MARKER_REL}*` };
    for (const f of vscode.workspace.workspaceFolders ?? []) this.watch(f);
    this._register(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.unwatch(f);
        for (const f of e.added) this.watch(f);
      }),
    );
    this._register(
      // The extra state paths are state files, not work.
      onDidChangeSettings(() => {
        this.stateTests = new WeakMap();
        for (const fg of this.perFolder.values()) {
          fg.globs = this.globsOf(fg.folder);
          fg.noReportTest = undefined;
        }
      }),
    );
  }

  private globsOf(folder: vscode.WorkspaceFolder): string[] {
    const m = this.modules!;
    return m.watchGlobs([m.markerGlob, ...Object.values(readSettings(folder.uri).extraStatePaths).flat()]);
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    const m = this.modules;
    if (!m || this.isDisposed || folder.uri.scheme !== 'file' || this.perFolder.has(folder.uri.toString())) return;
    const fg: FolderGit = {
      folder,
      ctx: { root: folder.uri.fsPath, gitFiles: new Set(), gitDirs: [], isState: (rel) => this.isState(fg, rel) },
      globs: this.globsOf(folder),
      dirs: new Map(),
      subs: [],
      planning: Promise.resolve(),
      work: new Set(),
      ignored: new m.events.IgnoredPaths(),
      disposed: false,
    };
    this.perFolder.set(folder.uri.toString(), fg);
    // The workbench watches the folder recursively already: this watcher filters its events, it adds no watch.
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const fire = (uri: vscode.Uri) => this.event(fg, uri.fsPath);
    fg.subs.push(w, w.onDidCreate(fire), w.onDidChange(fire), w.onDidDelete(fire));
    this.plan(fg);
  }

  /** A state file of the folder: one its report read, or one the state globs name. */
  private isState(fg: FolderGit, rel: string): boolean {
    const report = this.store.report(fg.folder.uri);
    if (!report) return (fg.noReportTest ??= this.modules!.events.stateTest(fg.globs, []))(rel);
    let test = this.stateTests.get(report);
    if (!test) {
      test = this.modules!.events.stateTest(
        fg.globs,
        report.systems.flatMap((s) => [s.home, ...s.docs.map((d) => d.relPath)]),
      );
      this.stateTests.set(report, test);
    }
    return test(rel);
  }

  /** Plan the folder's git watches again (after the ones before): open the new folders, close those no longer needed. */
  private plan(fg: FolderGit): void {
    const m = this.modules!;
    fg.planning = fg.planning
      .then(async () => {
        if (fg.disposed) return;
        const { dirs, watches } = await m.gitWatches(fg.folder.uri.fsPath);
        if (fg.disposed) return;
        fg.ctx.gitFiles = m.events.gitFilesOf(watches);
        fg.ctx.gitDirs = dirs ? [...new Set([dirs.gitDir, dirs.commonDir])] : [];
        const want = new Map(watches.map((w) => [w.dir, new Set(w.names)]));
        for (const [dir, d] of fg.dirs) {
          if (want.has(dir) && inodeOf(dir) === d.ino) continue;
          d.watcher.close();
          fg.dirs.delete(dir);
        }
        for (const [dir, names] of want) {
          const have = fg.dirs.get(dir);
          if (have) have.names = names;
          else this.watchDir(fg, dir, names);
        }
        this.log.trace(
          `Git watches of ${fg.folder.name}: ${watches.map((w) => `${w.dir} (${w.names.join(', ')})`).join('; ')}`,
        );
      })
      .catch((err) => this.log.error(`Git watches of ${fg.folder.name}: ${(err as Error)?.message ?? String(err)}`));
  }

  private watchDir(fg: FolderGit, dir: string, names: Set<string>): void {
    const ino = inodeOf(dir);
    if (ino === null) return; // Not there: the plan watches the folder above it, whose change plans again.
    let watcher: FSWatcher;
    try {
      watcher = fsWatch(dir, { persistent: false }, (_event, file) => {
        const f = typeof file === 'string' ? file : file ? String(file) : '';
        // No name (some platforms): taken as a change.
        if (!f || fg.dirs.get(dir)?.names.has(f)) this.gitChanged(fg, path.join(dir, f));
      });
      watcher.on('error', () => {
        watcher.close();
        if (fg.dirs.get(dir)?.watcher === watcher) fg.dirs.delete(dir);
      });
    } catch {
      return;
    }
    fg.dirs.set(dir, { watcher, names, ino });
  }

  /** An event of the workbench's watcher in the folder. */
  private event(fg: FolderGit, abs: string): void {
    const kind = this.modules!.events.gitEventKind(abs, fg.ctx);
    // A git file whose folder is watched directly was reported there already, sooner: this report,
    // coming later, would start a second burst. Without that watch (it failed), this one counts.
    if (kind === 'git') {
      if (!fg.dirs.has(path.dirname(path.resolve(abs)))) this.gitChanged(fg, abs);
    } else if (kind === 'work' && this.hasSystems(fg)) {
      this.log.trace(`Work changed: ${abs}`);
      const rel = path.relative(fg.ctx.root, path.resolve(abs)).split(path.sep).join('/');
      fg.work.add(rel);
      if (this.modules!.events.isIgnoreFile(rel)) fg.ignored.clear();
      this.workBursts.run(fg.folder.uri.toString(), () => void this.workChanged(fg));
    }
  }

  /**
   * Work files changed and the burst is quiet: the folder is read again, unless git ignores every one
   * of them (a build's output, a log): then `git status` says what it said, and nothing is read.
   */
  private async workChanged(fg: FolderGit): Promise<void> {
    const rels = [...fg.work];
    fg.work.clear();
    if (fg.disposed || !rels.length) return;
    const { events, ignoredByGit } = this.modules!;
    const ask = rels.some(events.isIgnoreFile) ? null : fg.ignored.questions(rels);
    if (ask) {
      const said = ask.length ? await ignoredByGit(fg.ctx.root, ask) : new Set<string>();
      if (fg.disposed) return;
      if (said) {
        fg.ignored.learn(ask, said);
        if (fg.ignored.allIgnored(rels)) {
          const some = `${rels.slice(0, 3).join(', ')}${rels.length > 3 ? ', …' : ''}`;
          this.log.trace(`Work changed only in files git ignores (${some}): not read again`);
          return;
        }
      }
    }
    void this.store.scan(fg.folder);
  }

  /** A folder whose last report found no system has no check that reads git (a system that comes is seen by its own watchers). */
  private hasSystems(fg: FolderGit): boolean {
    const report = this.store.report(fg.folder.uri);
    return !report || report.systems.length > 0;
  }

  /** A file git's answer rests on changed: once the burst is quiet, plan the watches again and read the folder with git run again. */
  private gitChanged(fg: FolderGit, abs: string): void {
    this.log.trace(`Git changed: ${abs}`);
    const key = fg.folder.uri.toString();
    this.gitBursts.run(key, () => {
      if (fg.disposed) return;
      this.plan(fg);
      if (!this.hasSystems(fg)) return;
      // This read runs git now: the work changes waiting so far are in it. What git ignores may have
      // changed with the index (a file untracked that a pattern names).
      this.workBursts.cancel(key);
      fg.work.clear();
      fg.ignored.clear();
      void this.store.scan(fg.folder);
    });
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const fg = this.perFolder.get(key);
    if (fg) {
      fg.disposed = true;
      for (const d of fg.subs) d.dispose();
      for (const { watcher } of fg.dirs.values()) watcher.close();
      fg.dirs.clear();
    }
    this.perFolder.delete(key);
    this.gitBursts.cancel(key);
    this.workBursts.cancel(key);
  }
}

/** A folder's inode, or null when no folder stands there. */
function inodeOf(dir: string): number | null {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? st.ino : null;
  } catch {
    return null;
  }
}
