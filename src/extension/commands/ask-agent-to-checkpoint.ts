/**
 * Ask the agent to checkpoint: type the system's own checkpoint trigger (from its seed, or the
 * setting; to Codex a slash command of Claude Code's is a request in words, as the guard's block says it)
 * into the terminal that runs `claude` or `codex`, without pressing Enter. The checklist
 * opens and re-evaluates as the agent rewrites the files.
 */
import * as vscode from 'vscode';
import { said } from '../pure/checkpoint-text';
import { quotedT } from '../pure/findings';
import type { SystemReport } from '../../core/model/model';
import { readSettings } from '../config';
import type { Services } from '../services';
import { findAgentTerminal } from '../terminals';
import { requireTrust } from '../trust';
import { pickFolder, pickSystem } from './pick';

export const id = 'sessionLedger.askAgentToCheckpoint';

/** The system that most needs it: BROKEN first, then PARTIAL. */
function worst(systems: readonly SystemReport[]): SystemReport | undefined {
  return systems.find((x) => x.label === 'BROKEN') ?? systems.find((x) => x.label === 'PARTIAL') ?? systems[0];
}

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  await s.store.ready;
  const state = await pickFolder(s, arg, { withSystems: true });
  const systems = state?.report?.systems ?? [];
  if (!state || systems.length === 0) {
    void vscode.window.showInformationMessage(t('No agent state file detected: there is no checkpoint to ask for.'));
    return;
  }
  const found = await findAgentTerminal();
  if (!found) {
    void vscode.window.showInformationMessage(
      t(
        'No integrated terminal runs claude or codex. Start the agent in a terminal, or type its checkpoint command yourself.',
      ),
    );
    return;
  }
  const sys =
    systems.length > 1
      ? ((await pickSystem(state, arg, t('Whose checkpoint should the agent run?'))) ?? undefined)
      : worst(systems);
  if (!sys) return;
  // The system's own trigger (or the setting); to Codex, which has no slash command of Claude Code's, a request in words.
  const { agentTrigger } = await import('../../core/hooks/guard');
  const typed =
    readSettings(state.folder.uri).checkpointTriggers[sys.id] ?? agentTrigger(sys.id, sys.home, found.agent);
  const trigger = typeof typed === 'string' ? typed : said(typed, vscode.l10n.t);
  found.terminal.show(false);
  // No Enter: the user reads it and sends it.
  found.terminal.sendText(trigger, false);
  s.log.info(`Typed "${trigger}" into terminal "${found.terminal.name}" (${found.agent}); not sent.`);
  s.checklist.show(state);
  void vscode.window.showInformationMessage(
    t(
      'Typed {0} into the {1} terminal. Press Enter there to send it; the checklist updates as the agent rewrites the files.',
      trigger,
      found.agent,
    ),
  );
}
