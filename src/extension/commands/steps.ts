/**
 * A command's questions as one flow of quick picks: each pick carries the command's title and its
 * step among the questions the flow asks ("Install guard hooks (2/4)"); from the second on, a Back
 * button goes to the question before, its answer still chosen. Escape (or anything else that closes
 * a pick) cancels the whole flow: the command does nothing.
 */
import * as vscode from 'vscode';

/** One question: its rows, and whether it is asked given the answers so far (always, by default). */
export interface Step<I extends vscode.QuickPickItem, A> {
  placeHolder: string;
  items: readonly I[];
  shown?: (answers: Partial<A>) => boolean;
}

/**
 * Ask `steps` in their order under `title`: the answers (the row picked for each question asked), or
 * undefined when the user cancelled. The step count counts the questions asked given the answers so
 * far: a question whose answer ends the flow early (Codex alone asks nothing more) lowers it from
 * then on.
 */
export async function askSteps<A extends Record<string, vscode.QuickPickItem | undefined>>(
  title: string,
  steps: { [K in keyof A]-?: Step<NonNullable<A[K]>, A> },
): Promise<Partial<A> | undefined> {
  const keys = Object.keys(steps) as Array<keyof A & string>;
  const answers: Partial<A> = {};
  const asked = () => keys.filter((k) => steps[k].shown?.(answers) ?? true);
  let at = 0;
  for (;;) {
    const shown = asked();
    if (at >= shown.length) break;
    const key = shown[at];
    const step = steps[key];
    const got = await askOne(title, at + 1, shown.length, step, answers[key]);
    if (got === undefined) return undefined;
    if (got === BACK) at = Math.max(0, at - 1);
    else {
      answers[key] = got as A[typeof key];
      at++;
    }
  }
  // An answer given before the user went back and took another way is no answer.
  const shown = new Set(asked());
  for (const k of keys) if (!shown.has(k)) delete answers[k];
  return answers;
}

const BACK = Symbol('back');

/** One quick pick of the flow: the row picked, BACK, or undefined when it was closed. */
function askOne<I extends vscode.QuickPickItem>(
  title: string,
  step: number,
  totalSteps: number,
  q: { placeHolder: string; items: readonly I[] },
  chosen: I | undefined,
): Promise<I | typeof BACK | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<I>();
    qp.title = title;
    qp.step = step;
    qp.totalSteps = totalSteps;
    qp.placeholder = q.placeHolder;
    qp.items = q.items;
    if (chosen && q.items.includes(chosen)) qp.activeItems = [chosen];
    qp.buttons = step > 1 ? [vscode.QuickInputButtons.Back] : [];
    // A click elsewhere (or a walkthrough step taking the focus) keeps the pick open; Escape closes it.
    qp.ignoreFocusOut = true;
    let settled = false;
    const settle = (v: I | typeof BACK | undefined) => {
      if (settled) return;
      settled = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) settle(BACK);
    });
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0] ?? qp.activeItems[0];
      if (picked) settle(picked);
    });
    qp.onDidHide(() => settle(undefined));
    qp.show();
  });
}
