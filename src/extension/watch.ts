/**
 * File watchers on every system's home files (the core's `watchGlobs`) and the extra state paths,
 * per workspace folder. Events are debounced per folder and turned into one re-scan of that folder.
 */
import * as vscode from 'vscode';
import { onDidChangeSettings, readSettings } from './config';
import { KeyedDebouncer } from './pure/debounce';
import type { LedgerStore } from './store';

/** Milliseconds of quiet before a folder is re-read (an agent writes a file in several steps). */
export const DEBOUNCE_MS = 150;

export class FolderWatchers implements vscode.Disposable {
  private readonly perFolder = new Map<string, vscode.Disposable[]>();
  private readonly debounce = new KeyedDebouncer<string>(DEBOUNCE_MS);
  private readonly subs: vscode.Disposable[] = [];
  private globs: readonly string[] = [];

  constructor(
    private readonly store: LedgerStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async start(): Promise<void> {
    const { SYSTEMS } = await import('../core/formats');
    this.globs = [...new Set(SYSTEMS.flatMap((s) => s.watchGlobs))];
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
    );
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    if (folder.uri.scheme !== 'file') return;
    const key = folder.uri.toString();
    const extra = Object.values(readSettings(folder.uri).extraStatePaths).flat();
    const globs = [...new Set([...this.globs, ...extra])];
    const subs: vscode.Disposable[] = [];
    const fire = (uri: vscode.Uri) => {
      this.log.trace(`Changed: ${uri.fsPath}`);
      this.debounce.run(key, () => void this.store.scan(folder));
    };
    for (const g of globs) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, g));
      subs.push(w, w.onDidCreate(fire), w.onDidChange(fire), w.onDidDelete(fire));
    }
    this.perFolder.set(key, subs);
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    for (const d of this.perFolder.get(key) ?? []) d.dispose();
    this.perFolder.delete(key);
    this.debounce.cancel(key);
  }

  dispose(): void {
    for (const subs of this.perFolder.values()) for (const d of subs) d.dispose();
    this.perFolder.clear();
    for (const s of this.subs) s.dispose();
    this.debounce.dispose();
  }
}
