/** Create starter file: the empty template of a chosen system's home file. Refuses to overwrite. */
import * as vscode from 'vscode';
import { quotedT } from '../pure/findings';
import { render } from '../../core/model/messages';
import type { SystemId } from '../../core/model/model';
import { errorText } from '../pure/error-text';
import type { Services } from '../services';
import { requireTrust } from '../trust';
import { openAt } from './open-state-file';
import { pickFolder } from './pick';

export const id = 'sessionLedger.createStarterFile';

export async function run(s: Services, arg?: unknown): Promise<void> {
  if (!requireTrust()) return;
  const t = quotedT(vscode.l10n.t);
  const state = await pickFolder(s, arg);
  if (!state) {
    void vscode.window.showInformationMessage(t('Open a folder first.'));
    return;
  }
  const { STARTER_SYSTEMS, planStarter, writeStarter } = await import('../../core/systems/starter');
  const root = state.folder.uri.fsPath;
  const plans = await Promise.all(STARTER_SYSTEMS.map((id) => planStarter(root, id)));
  const items = plans.map((p) => ({
    label: p.starter.title,
    detail: render(p.starter.description, t),
    description: p.conflicts.length ? t('exists — will not overwrite') : p.write.map((f) => f.path).join(', '),
    system: p.starter.system as SystemId,
    conflicts: p.conflicts,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    placeHolder: t('Which system should the starter file follow?'),
    matchOnDetail: true,
  });
  if (!pick) return;
  if (pick.conflicts.length) {
    void vscode.window.showWarningMessage(
      t('{0} already exists; the starter never overwrites.', pick.conflicts.join(', ')),
    );
    return;
  }
  try {
    const res = await writeStarter(root, pick.system);
    s.log.info(
      `Starter ${pick.system}: wrote ${res.written.join(', ')}${res.kept.length ? `; kept ${res.kept.join(', ')}` : ''}`,
    );
    await s.store.scan(state.folder);
    const home = plans.find((p) => p.starter.system === pick.system)?.home ?? res.written[0];
    await openAt({ uri: vscode.Uri.joinPath(state.folder.uri, ...home.split('/')), line: 1 });
    const kept = res.kept.length ? ` ${t('Kept the existing {0}.', res.kept.join(', '))}` : '';
    void vscode.window.showInformationMessage(
      t(
        'Created {0}. It is an empty template: the checks flag it until the agent fills it in.',
        res.written.join(', '),
      ) + kept,
    );
  } catch (err) {
    void vscode.window.showErrorMessage(t('Starter not written: {0}', errorText(t, err)));
  }
}
