/**
 * Context keys for `when` clauses and the walkthrough's completion events:
 * `sessionLedger.ready` (first scan done), `sessionLedger.detected` (a folder holds a system: the
 * view and its activity bar icon show only then, or once the user ran one of its commands, which
 * sets `sessionLedger.viewRequested`), `sessionLedger.hasS4`, `sessionLedger.hasStateFile` (a
 * system's home file exists), `sessionLedger.meterActive` (the context meter follows a session),
 * `sessionLedger.hooksInstalled` (a folder's Claude Code settings call the PreCompact guard) and
 * `sessionLedger.hasCheckpoint` (a folder holds a checkpoint marker). The last two are read from disk
 * after every scan of the store (a marker write re-scans its folder) and when a settings file changes,
 * however it changed (the install command, the CLI, an editor).
 */
import * as vscode from 'vscode';
import { WALKTHROUGH } from './commands/get-started';
import type { SessionMeter } from './status/session-meter';
import type { LedgerStore } from './store';
import { offersCompactState } from './commands/compact-agent-state';

/**
 * The walkthrough step each key completes. The steps declare `onContext:` completion events, but
 * VS Code registers a walkthrough's steps only when its walkthroughs service first starts (the first
 * Welcome page or walkthrough opened in the window) and ignores, for the rest of the session, a
 * context already true at that moment: a state file found at activation would never tick its step.
 * So when a key turns true the step is also marked complete through VS Code's own command (the
 * walkthrough's "Mark Done"); VS Code keeps that state across windows.
 */
const STEP_OF: Record<string, string> = {
  'sessionLedger.hasStateFile': 'stateFile',
  'sessionLedger.hooksInstalled': 'hooks',
  'sessionLedger.meterActive': 'meter',
  'sessionLedger.hasCheckpoint': 'checkpoint',
};

/** The Claude Code settings files the guard hooks live in, per folder. */
const SETTINGS_GLOB = '.claude/settings*.json';

export function bindContextKeys(store: LedgerStore, meter: SessionMeter): vscode.Disposable {
  const values = new Map<string, boolean>();
  const set = (key: string, v: boolean) => {
    if (values.get(key) === v) return;
    values.set(key, v);
    void vscode.commands.executeCommand('setContext', key, v);
    const step = STEP_OF[key];
    // a host without the Welcome contribution has no such command: nothing to tick there
    if (v && step)
      void vscode.commands
        .executeCommand('welcome.markStepComplete', `${WALKTHROUGH}#${step}`)
        .then(undefined, () => undefined);
  };
  let disposed = false;
  let generation = 0;
  const readDisk = async () => {
    const mine = ++generation;
    const { walkthroughFacts } = await import('./pure/walkthrough-facts');
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    const facts = await Promise.all(roots.map((r) => walkthroughFacts(r)));
    // a newer read started meanwhile: it decides
    if (disposed || mine !== generation) return;
    set(
      'sessionLedger.hooksInstalled',
      facts.some((f) => f.hooksInstalled),
    );
    set(
      'sessionLedger.hasCheckpoint',
      facts.some((f) => f.hasCheckpoint),
    );
  };
  const update = () => {
    const systems = store.folders().flatMap((f) => f.report?.systems ?? []);
    set('sessionLedger.detected', systems.length > 0);
    set(
      'sessionLedger.hasS4',
      // A system whose home declares the compact-state write action (S4's) is present.
      systems.some((s) => offersCompactState(s.id)),
    );
    set(
      'sessionLedger.hasStateFile',
      systems.some((s) => s.docs.some((d) => d.relPath === s.home)),
    );
    void readDisk();
  };
  void store.ready.then(() => {
    update();
    set('sessionLedger.ready', true);
  });
  const settings = vscode.workspace.createFileSystemWatcher(`**/${SETTINGS_GLOB}`);
  const onSettings = () => void readDisk();
  return vscode.Disposable.from(
    {
      dispose: () => {
        disposed = true;
      },
    },
    store.onDidChange(update),
    meter.onDidChange((m) => set('sessionLedger.meterActive', !!m)),
    settings,
    settings.onDidCreate(onSettings),
    settings.onDidChange(onSettings),
    settings.onDidDelete(onSettings),
  );
}
