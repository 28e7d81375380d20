/** Which folder a command acts on: the one its argument names, the only one, or the user's pick. */
import * as vscode from 'vscode';
import type { SystemId, SystemReport } from '../../core/model/model';
import type { Services } from '../services';
import type { FolderState } from '../store';
import { systemLabel } from '../pure/findings';
import { DocNode } from '../tree/doc-node';
import { SystemNode } from '../tree/system-node';

/** The system a tree node (a system root or one of its documents) stands for, if the argument is one. */
export function nodeOf(arg: unknown): { folder: vscode.WorkspaceFolder; system: SystemReport } | undefined {
  return arg instanceof DocNode || arg instanceof SystemNode ? arg : undefined;
}

/** The folder a command argument names (a tree node, a Uri), if any. */
export function folderOfArg(s: Services, arg: unknown): FolderState | undefined {
  const node = nodeOf(arg);
  if (node) return s.store.folder(node.folder.uri);
  if (arg instanceof vscode.Uri) return s.store.folder(arg);
  if (arg && typeof arg === 'object' && 'uri' in arg && (arg as { uri: unknown }).uri instanceof vscode.Uri)
    return s.store.folder((arg as { uri: vscode.Uri }).uri);
  return undefined;
}

/**
 * The folder a command acts on without asking (the argument's, the only one, the one with the active
 * editor), or, when the user must choose, the folders to choose from; undefined when none is open.
 */
export function folderOrChoices(
  s: Services,
  arg: unknown,
  opts: { withSystems?: boolean } = {},
): FolderState | FolderState[] | undefined {
  const named = folderOfArg(s, arg);
  if (named) return named;
  let all = s.store.folders();
  if (opts.withSystems) {
    const some = all.filter((f) => (f.report?.systems.length ?? 0) > 0);
    if (some.length) all = some;
  }
  if (all.length <= 1) return all[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const byEditor = active
    ? all.find((f) => vscode.workspace.getWorkspaceFolder(active)?.uri.toString() === f.folder.uri.toString())
    : undefined;
  return byEditor ?? all;
}

/** The quick pick's rows for choosing one of `folders`. */
export function folderItems(folders: readonly FolderState[]): Array<vscode.QuickPickItem & { state: FolderState }> {
  return folders.map((f) => ({ label: f.folder.name, description: f.report ? f.report.label : '', state: f }));
}

/** Pick a folder: the argument's, the only one, the one with the active editor, or ask. */
export async function pickFolder(
  s: Services,
  arg: unknown,
  opts: { withSystems?: boolean } = {},
): Promise<FolderState | undefined> {
  const found = folderOrChoices(s, arg, opts);
  if (!Array.isArray(found)) return found;
  const pick = await vscode.window.showQuickPick(folderItems(found), {
    placeHolder: vscode.l10n.t('Choose a workspace folder'),
  });
  return pick?.state;
}

/** Pick one detected system of a folder (the argument's, the only one, or ask). */
export async function pickSystem(
  state: FolderState,
  arg: unknown,
  placeHolder: string,
): Promise<SystemReport | undefined> {
  const systems = state.report?.systems ?? [];
  const node = nodeOf(arg);
  if (node) return systems.find((x) => x.id === node.system.id);
  if (systems.length <= 1) return systems[0];
  const pick = await vscode.window.showQuickPick(
    systems.map((x) => ({ label: systemLabel(x), description: x.home, id: x.id as SystemId })),
    { placeHolder },
  );
  return systems.find((x) => x.id === pick?.id);
}
