/** Copy resume prompt: the prompt to paste into a fresh session (the core builds it; secrets are masked there). */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import type { Services } from '../services';
import { nodeOf, pickFolder } from './pick';

export const id = 'sessionLedger.copyResumePrompt';

export async function run(s: Services, arg?: unknown): Promise<void> {
  const t = quotedT(vscode.l10n.t);
  await s.store.ready;
  const state = await pickFolder(s, arg, { withSystems: true });
  const report = state?.report;
  if (!report || report.systems.length === 0) {
    void vscode.window.showInformationMessage(t('No state file detected: there is no resume prompt to copy.'));
    return;
  }
  const { resumePromptFor } = await import('../../core/checkpoint/checkpoint');
  const node = nodeOf(arg);
  const scoped = node ? { ...report, systems: report.systems.filter((x) => x.id === node.system.id) } : report;
  const prompt = resumePromptFor(scoped);
  await vscode.env.clipboard.writeText(prompt);
  void vscode.window.showInformationMessage(
    t('Resume prompt copied: {0}', prompt.split('\n')[0] + (prompt.includes('\n') ? ' …' : '')),
  );
}
