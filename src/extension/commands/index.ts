/** Every command, one module each; registered in one place with a Disposable each. */
import * as vscode from 'vscode';
import { errorText } from '../pure/errorText';
import type { Services } from '../services';
import * as askAgentToCheckpoint from './askAgentToCheckpoint';
import * as checkpointNow from './checkpointNow';
import * as compactAgentState from './compactAgentState';
import * as copyResumePrompt from './copyResumePrompt';
import * as createStarterFile from './createStarterFile';
import * as getStarted from './getStarted';
import * as installHooks from './installHooks';
import * as openChecklist from './openChecklist';
import * as openStateFile from './openStateFile';
import * as refresh from './refresh';
import * as removeHooks from './removeHooks';
import * as showLog from './showLog';

interface CommandModule {
  id: string;
  run(s: Services, ...args: unknown[]): Promise<void>;
}

export const COMMANDS: readonly CommandModule[] = [checkpointNow, copyResumePrompt, openChecklist, openStateFile, refresh, installHooks, removeHooks, createStarterFile, compactAgentState, askAgentToCheckpoint, showLog, getStarted];

export function registerCommands(s: Services): vscode.Disposable[] {
  return COMMANDS.map((c) =>
    vscode.commands.registerCommand(c.id, async (...args: unknown[]) => {
      try {
        await c.run(s, ...args);
      } catch (err) {
        s.log.error(`${c.id}: ${(err as Error)?.stack ?? String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Session Ledger: {0}', errorText(vscode.l10n.t, err)));
      }
    }),
  );
}
