/**
 * Watchers on every system's presence globs (the core's facts table), the extra state paths and the
 * folders of the documents detected, per workspace folder. Two sources feed one debounced re-scan
 * of that folder: VS Code's file watchers (they also see folders created later) and direct
 * directory watches (`fs.watch`) on the folders that exist, which report a write in milliseconds
 * where the workbench's watcher can take a second or more.
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { onDidChangeSettings, readSettings } from './config';
import { KeyedDebouncer } from './pure/debounce';
import { dirWatchOf } from './pure/globs';
import type { LedgerStore } from './store';

/** Milliseconds of quiet before a folder is re-read (an agent writes a file in several steps). */
export const DEBOUNCE_MS = 100;
/** A folder written to without pause is re-read at the latest this long after the first change (ms): the views stay within about a second of the disk. */
export const MAX_WAIT_MS = 700;

interface FolderWatch {
  subs: vscode.Disposable[];
  /** Directory watches: absolute folder → its watcher and the file-name tests. */
  dirs: Map<string, { watcher: FSWatcher; names: RegExp[] }>;
}

export class FolderWatchers implements vscode.Disposable {
  private readonly perFolder = new Map<string, FolderWatch>();
  private readonly debounce = new KeyedDebouncer<string>(DEBOUNCE_MS, MAX_WAIT_MS);
  /** The paths changed in each folder's current burst ('all': one the platform did not name). */
  private readonly bursts = new Map<string, Set<string> | 'all'>();
  private readonly subs: vscode.Disposable[] = [];
  private globs: readonly string[] = [];

  constructor(
    private readonly store: LedgerStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async start(): Promise<void> {
    const [{ watchGlobs }, { SHARED_MARKER_REL }] = await Promise.all([
      import('./pure/globs'),
      import('../core/checkpoint/marker'),
    ]);
    // The checkpoint markers too: the guard preview in the status bar follows them.
    this.globs = watchGlobs([`${SHARED_MARKER_REL}*`]);
    for (const f of vscode.workspace.workspaceFolders ?? []) this.watch(f);
    this.subs.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.unwatch(f);
        for (const f of e.added) this.watch(f);
      }),
      onDidChangeSettings(() => {
        for (const f of vscode.workspace.workspaceFolders ?? []) {
          this.unwatch(f);
          this.watch(f);
        }
        void this.store.refreshAll();
      }),
      // Documents found at paths no glob names (a custom ledger_path, older places): watch their folders too.
      this.store.onDidChange((f) => {
        if (f) this.watchDocs(f);
      }),
    );
  }

  /** A file changed (absolute path; '' when the platform did not say which): its systems are read again, once per burst. */
  private changed(folder: vscode.WorkspaceFolder, abs: string): void {
    this.log.trace(`Changed: ${abs || folder.uri.fsPath}`);
    const key = folder.uri.toString();
    const rel = abs ? path.relative(folder.uri.fsPath, abs).split(path.sep).join('/') : '';
    const burst = this.bursts.get(key);
    if (!rel || rel.startsWith('..') || burst === 'all') this.bursts.set(key, 'all');
    else this.bursts.set(key, (burst ?? new Set()).add(rel));
    this.debounce.run(key, () => {
      const paths = this.bursts.get(key);
      this.bursts.delete(key);
      void this.store.scan(folder, paths === 'all' || !paths ? undefined : [...paths]);
    });
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    if (folder.uri.scheme !== 'file') return;
    const key = folder.uri.toString();
    const extra = Object.values(readSettings(folder.uri).extraStatePaths).flat();
    const globs = [...new Set([...this.globs, ...extra])];
    const fw: FolderWatch = { subs: [], dirs: new Map() };
    this.perFolder.set(key, fw);
    const fire = (uri: vscode.Uri) => this.changed(folder, uri.fsPath);
    for (const g of globs) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, g));
      fw.subs.push(w, w.onDidCreate(fire), w.onDidChange(fire), w.onDidDelete(fire));
      const d = dirWatchOf(g);
      if (d) this.watchDir(folder, fw, d.dir, d.name);
    }
    this.watchDocs(folder);
  }

  private watchDocs(folder: vscode.WorkspaceFolder): void {
    const fw = this.perFolder.get(folder.uri.toString());
    const report = this.store.report(folder.uri);
    if (!fw || !report) return;
    for (const s of report.systems) {
      for (const rel of [s.home, ...s.docs.map((d) => d.relPath)]) {
        const i = rel.lastIndexOf('/');
        const name = rel.slice(i + 1);
        this.watchDir(
          folder,
          fw,
          i < 0 ? '' : rel.slice(0, i),
          new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
      }
    }
  }

  private watchDir(folder: vscode.WorkspaceFolder, fw: FolderWatch, dir: string, name: RegExp): void {
    const abs = path.join(folder.uri.fsPath, ...dir.split('/').filter(Boolean));
    const have = fw.dirs.get(abs);
    if (have) {
      if (!have.names.some((n) => n.source === name.source)) have.names.push(name);
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = fsWatch(abs, { persistent: false }, (_event, file) => {
        const entry = fw.dirs.get(abs);
        const f = typeof file === 'string' ? file : file ? String(file) : '';
        // No name (some platforms): re-read anyway. Temp files of atomic writes end in .tmp: their rename reports the real name.
        if (!f) this.changed(folder, '');
        else if (entry?.names.some((n) => n.test(f)) && !f.endsWith('.tmp')) this.changed(folder, path.join(abs, f));
      });
      watcher.on('error', () => {
        watcher.close();
        fw.dirs.delete(abs);
      });
    } catch {
      return; // The folder does not exist (yet): VS Code's watcher covers it.
    }
    fw.dirs.set(abs, { watcher, names: [name] });
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const fw = this.perFolder.get(key);
    if (fw) {
      for (const d of fw.subs) d.dispose();
      for (const { watcher } of fw.dirs.values()) watcher.close();
    }
    this.perFolder.delete(key);
    this.debounce.cancel(key);
    this.bursts.delete(key);
  }

  dispose(): void {
    for (const f of vscode.workspace.workspaceFolders ?? []) this.unwatch(f);
    for (const key of [...this.perFolder.keys()]) {
      const fw = this.perFolder.get(key);
      for (const d of fw?.subs ?? []) d.dispose();
      for (const { watcher } of fw?.dirs.values() ?? []) watcher.close();
    }
    this.perFolder.clear();
    for (const s of this.subs) s.dispose();
    this.debounce.dispose();
  }
}
