/** The context meter in the status bar (`$(pulse) 42%`): one class, one status item. */
import * as vscode from 'vscode';
import { figureAge } from '../../core/model/time';
import { Disposable } from '../dispose';
import { otherSessionsLines } from '../pure/session-pick';
import { INSTALL_COMMAND, noFigureView, statusView, TRUST_COMMAND, type StatusView } from '../pure/status-text';
import type { GuardPreview, StatusState } from './guard-preview';
import { shownSession, type MeterState } from './session-meter';

export const STATUS_ITEM_ID = 'sessionLedger.context';

export class ContextStatusItem extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private view: StatusView | undefined;
  /** The folder of the session shown (the click's argument while a blocking check fails). */
  private folder = '';

  /** `source` is the one state the item shows (the meter's figure with the guard's verdict). */
  constructor(source: GuardPreview) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 50));
    this.item.name = vscode.l10n.t('Session Ledger context');
    this._register(source.onDidChangeStatus((st) => this.render(st)));
    // Trusted after Restricted Mode: the commands that write are offered from then on.
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.render(source.status())));
    // The tooltip says how long ago the figure was taken ("5 min ago"): drawn again each minute, so it
    // stays true while nothing else changes (an unchanged view is not sent again).
    const clock = setInterval(() => this.render(source.status()), 60_000);
    this._register({ dispose: () => clearInterval(clock) });
    this.render(source.status());
  }

  private render({ meter: s, guard, blocking }: StatusState): void {
    if (!s) {
      this.view = undefined;
      this.item.hide();
      return;
    }
    // A session with no figure yet (one /clear just started, before the agent's first answer) shows `--`
    // and what is known of it, never the figure of the session it replaced.
    const now = Date.now();
    const base = s.usage
      ? statusView(
          vscode.l10n.t,
          s.usage,
          s.profile,
          s.level,
          guard,
          { count: s.compactions, advice: s.advice },
          now,
          vscode.workspace.isTrusted,
          figureAge(s.usage.at, s.ref.mtime, now, s.windowMinutes),
          blocking,
        )
      : noFigureView(vscode.l10n.t, s.ref, s.profile, guard, vscode.workspace.isTrusted, blocking);
    // Several live sessions: the item says whose figure it shows (the active terminal's session, or
    // the newest, said so), and lists the others.
    const v = s.others.length ? withShownSession(base, s, vscode.l10n.t) : base;
    // The meter moves with every append to the transcript: what would show the same is not sent again.
    if (this.view && sameView(this.view, v) && this.folder === s.folder.uri.toString()) return;
    this.view = v;
    this.folder = s.folder.uri.toString();
    this.item.text = v.text;
    // While a blocking check fails, a checkpoint would be refused: the click opens that check's row instead.
    this.item.command = v.focus
      ? {
          command: 'sessionLedger.openChecklist',
          title: vscode.l10n.t('Open checklist'),
          arguments: [s.folder.uri, v.focus],
        }
      : 'sessionLedger.checkpointNow';
    // Spoken instead of the tooltip's Markdown: the figure, the mark passed, what to do.
    this.item.accessibilityInformation = { label: v.label };
    const md = new vscode.MarkdownString(v.tooltip, true);
    md.isTrusted = {
      enabledCommands: ['sessionLedger.checkpointNow', 'sessionLedger.openChecklist', INSTALL_COMMAND, TRUST_COMMAND],
    };
    this.item.tooltip = md;
    this.item.backgroundColor = v.background ? new vscode.ThemeColor(v.background) : undefined;
    this.item.show();
  }

  /** What the status bar shows now (the test API); undefined when hidden. */
  snapshot(): { text: string; label: string; tooltip: string; background?: string } | undefined {
    if (!this.view) return undefined;
    const out: { text: string; label: string; tooltip: string; background?: string } = {
      text: this.view.text,
      label: this.view.label,
      tooltip: this.view.tooltip,
    };
    if (this.view.background) out.background = this.view.background;
    return out;
  }
}

function sameView(a: StatusView, b: StatusView): boolean {
  return (
    a.text === b.text &&
    a.label === b.label &&
    a.tooltip === b.tooltip &&
    a.background === b.background &&
    JSON.stringify(a.focus) === JSON.stringify(b.focus)
  );
}

/** The view with whose figure it is (after the tooltip's heading, and in the label) and the other live sessions. */
function withShownSession(base: StatusView, s: MeterState, t: typeof vscode.l10n.t): StatusView {
  const whose = shownSession(t, s);
  const lines = base.tooltip.split('\n');
  lines.splice(2, 0, whose.line, '');
  return {
    ...base,
    label: `${base.label} ${whose.label}`,
    tooltip: [...lines, ...otherSessionsLines(t, s.others, Date.now())].join('\n'),
  };
}
