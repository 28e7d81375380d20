/** Every command, one module each; registered in one place with a Disposable each. */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import { errorText } from '../pure/error-text';
import type { Services } from '../services';
import * as askAgentToCheckpoint from './ask-agent-to-checkpoint';
import * as checkpointNow from './checkpoint-now';
import * as compactAgentState from './compact-agent-state';
import * as copyResumePrompt from './copy-resume-prompt';
import * as createStarterFile from './create-starter-file';
import * as enableLedger from './enable-ledger';
import * as getStarted from './get-started';
import * as installHooks from './install-hooks';
import * as openChecklist from './open-checklist';
import * as openStateFile from './open-state-file';
import * as refresh from './refresh';
import * as removeHooks from './remove-hooks';
import * as showLog from './show-log';

interface CommandModule {
  id: string;
  run(s: Services, ...args: unknown[]): Promise<void>;
}

export const COMMANDS: readonly CommandModule[] = [
  checkpointNow,
  copyResumePrompt,
  openChecklist,
  openStateFile,
  refresh,
  installHooks,
  removeHooks,
  createStarterFile,
  compactAgentState,
  enableLedger,
  askAgentToCheckpoint,
  showLog,
  getStarted,
];

export function registerCommands(s: Services): vscode.Disposable[] {
  return COMMANDS.map((c) =>
    vscode.commands.registerCommand(c.id, async (...args: unknown[]) => {
      // The user asked for Session Ledger in this window: its view shows even where no system was found.
      void vscode.commands.executeCommand('setContext', 'sessionLedger.viewRequested', true);
      try {
        await c.run(s, ...args);
      } catch (err) {
        s.log.error(`${c.id}: ${(err as Error)?.stack ?? String(err)}`);
        const t = quotedT(vscode.l10n.t);
        void vscode.window.showErrorMessage(t('Session Ledger: {0}', errorText(t, err)));
      }
    }),
  );
}
