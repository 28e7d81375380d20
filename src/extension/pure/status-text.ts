/**
 * The context meter's status bar text, colour and Markdown tooltip, from the core's figure and
 * threshold profile. vscode-free (unit tested); `t` is the l10n function.
 */
import { guardCheckpointed, pastCheckpointTurn, type TurnAfterMarker } from '../../core/checkpoint/freshness';
import type { CompactionsAdvice } from '../../core/context/compactions';
import { shownPercent } from '../../core/context/thresholds';
import { blockingChecks, type ContextUsage, type SystemId, type WorkspaceReport } from '../../core/model/model';
import { hooksStoppedSaid, relayStoppedSaid, type ClaudeStop } from '../../core/hooks/client-settings';
import { render, saidMsg, type Msg } from '../../core/model/messages';
import type { FigureAge } from '../../core/model/time';
import { filesNamed, guardVerdictSaid } from '../../core/hooks/guard-state';
import type { ChecklistFocus } from './checklist-model';
import { plainText, type T } from './tree-text';
import { agoText, whenText } from './time-text';

export type MeterLevel = 'ok' | 'propose' | 'urgent';

export interface MeterProfile {
  profile: string;
  propose: number;
  urgent: number | null;
  /** The marks as the settings put them, when they put the proposal above the urgent mark (read the other way round). */
  inverted?: { propose: number; urgent: number };
}

/**
 * What the meter says of settings that put the proposal above the urgent mark (core `thresholdProfile`
 * reads them the other way round): the marks as set and as read. The tooltip and a one-time warning say it.
 */
export function invertedText(t: T, inverted: { propose: number; urgent: number }): string {
  return t(
    'Your settings put the checkpoint mark ({0} %) above the urgent mark ({1} %): they are read the other way round, a checkpoint is proposed at {1} % and urgent at {0} %. Set sessionLedger.thresholds.propose below sessionLedger.thresholds.urgent.',
    inverted.propose,
    inverted.urgent,
  );
}

/** What the PreCompact guard would decide now (core `preCompactGuard`, read-only). */
export interface GuardView {
  allow: boolean;
  /** The guard's rule: fresh, idle, opt-out, no-marker, foreign-marker, skeleton, gone, stale … */
  rule: string;
  /** The marker it used (relative path), or null. */
  marker: string | null;
  /** The marker max age it applied (minutes). */
  maxAgeMin: number;
  /** Claude Code's settings run the PreCompact guard here: without it, nothing stops /compact. */
  installed: boolean;
  /** When the marker it used was written (ms), or null. */
  markerMtime?: number | null;
  /** What the session's transcript said of the turns after that marker when the verdict was computed (core `turnAfter`). */
  turnAfter?: TurnAfterMarker;
  /** It allowed although a state file could not be checked (its own failure): why. No checkpoint is done on it. */
  unchecked?: string;
  /** It allowed on a marker that does not vouch for these state files as they are now (changed since the checkpoint). No checkpoint is done on it. */
  changed?: string[];
  /**
   * It allowed on a marker whose confirmed items the user unticked since (`itemKey`s; core `markerStand`):
   * the marker could not be withdrawn yet (Restricted Mode, or its removal failed). No checkpoint is done on it.
   */
  unticked?: string[];
  /**
   * Claude Code: the status line relay in the folder's settings (`file`) does not run, because the
   * statusLine of `by`, which Claude Code takes over it, runs instead (core `relayHidden`).
   */
  relayHidden?: { file: string; by: string };
  /** Claude Code: a setting of its own keeps it from running the installed guard (core `claudeStops`). */
  stopped?: ClaudeStop;
  /** Claude Code: the guard runs, but the managed settings' status line is shown over the installed relay (core `claudeStops`). */
  relayStopped?: ClaudeStop;
}

/**
 * The status bar's view of a guard decision (core `preCompactGuard`): every part of the decision that
 * `guardCheckpointed` reads is kept, so the status bar says "checkpoint done" exactly when the status
 * line does for the same decision.
 */
export function guardViewOf(
  d: {
    allow: boolean;
    rule: string;
    marker: string | null;
    markerMtime?: number;
    turnAfter?: TurnAfterMarker;
    unchecked?: string;
    changed?: readonly string[];
    /** The items the user unticked that the marker used confirmed (core `markerStand`). */
    unticked?: readonly string[];
  },
  installed: boolean,
  maxAgeMin: number,
): GuardView {
  return {
    allow: d.allow,
    rule: d.rule,
    marker: d.marker,
    maxAgeMin,
    installed,
    markerMtime: d.markerMtime ?? null,
    ...(d.turnAfter ? { turnAfter: { ...d.turnAfter } } : {}),
    ...(d.unchecked ? { unchecked: d.unchecked } : {}),
    ...(d.changed?.length ? { changed: [...d.changed] } : {}),
    ...(d.unticked?.length ? { unticked: [...d.unticked] } : {}),
  };
}

/**
 * When the guard's verdict in `g` changes with time alone, with no file changed (ms since the epoch), or
 * null: an allow that stands on a fresh marker ends once the marker is older than the marker max age,
 * after which a manual /compact is stopped. Every other verdict changes only with a file.
 */
export function verdictEndsAt(g: GuardView): number | null {
  return g.allow && g.rule === 'fresh' && typeof g.markerMtime === 'number'
    ? g.markerMtime + g.maxAgeMin * 60_000
    : null;
}

/**
 * What the guard would decide, as plain sentences (no icon): an allow on a marker that does not vouch
 * for the state files as they are now says which changed since and that a checkpoint again covers them
 * (the core's verdict), so it is not taken for "checkpoint done". `name` shows a file name (the tooltip's
 * Markdown passes `code`). `trusted`: false in Restricted Mode, where nothing can be installed, so no
 * command is named that cannot run.
 */
export function guardSentence(t: T, g: GuardView, name: (s: string) => string = (s) => s, trusted = true): string {
  // Where the guard does not run, its verdict names no change: what changed is said on its own. One file is "it", more are "them".
  const named = filesNamed(g.changed ?? [], name);
  const files = typeof named === 'string' ? named : render(named, t);
  const changed =
    !g.changed?.length || (g.installed && !g.stopped)
      ? ''
      : g.changed.length === 1
        ? ` ${t('{0} changed after the last checkpoint, which does not cover it: checkpoint again.', files)}`
        : ` ${t('{0} changed after the last checkpoint, which does not cover them: checkpoint again.', files)}`;
  const unticked = g.unticked?.length && g.marker ? ` ${markerStandsText(t, g.marker, trusted, name)}` : '';
  return `${verdictSentence(t, g, trusted, name)}${changed}${unticked}`;
}

/**
 * What is true while a checkpoint's marker still stands on items the user unticked since (core
 * `markerStand`): it still lets /compact through, and how it goes. Said by the status item and the
 * checklist alike. Trusted: Session Ledger withdraws it itself, so it stands only when that failed.
 */
export function markerStandsText(
  t: T,
  marker: string,
  trusted: boolean,
  name: (s: string) => string = (s) => s,
): string {
  return trusted
    ? t(
        'You unticked an item the checkpoint confirmed, but its marker {0} could not be withdrawn (the log says why): it still lets /compact through. Delete it to stop /compact, or tick the item again.',
        name(marker),
      )
    : t(
        'You unticked an item the checkpoint confirmed, but its marker {0} still lets /compact through: in Restricted Mode Session Ledger removes nothing. Trust this folder and it is withdrawn, or delete it yourself.',
        name(marker),
      );
}

/** A core sentence whose one argument is a settings file (core `claudeStops`), the file shown by `name`. */
function fileSaid(t: T, m: Msg, name: (s: string) => string): string {
  return t(m.id, ...m.args.map(name));
}

/** The guard's verdict alone, as one plain sentence. */
function verdictSentence(t: T, g: GuardView, trusted: boolean, name: (s: string) => string): string {
  if (g.installed && g.stopped) return fileSaid(t, hooksStoppedSaid(g.stopped), name);
  if (!g.installed && !trusted)
    return t(
      '/compact is not guarded: the guard hook is not installed in this folder, and in Restricted Mode it cannot be.',
    );
  if (!g.installed)
    return t('/compact is not guarded: the guard hook is not installed in this folder (run "Install guard hooks").');
  // The verdict's words are the core's (the CLI's `status` and `check` say the same).
  return render(guardVerdictSaid(g, g.maxAgeMin, name), t);
}

/**
 * A checkpoint covers the session now: the guard would let /compact through on its marker (not on
 * nothing-to-preserve, which saves nothing), and the agent's figure is not from a turn after it (the
 * conversation went on since: a checkpoint is due again).
 */
export function checkpointed(g: GuardView | undefined, u?: ContextUsage): boolean {
  return !!g && guardCheckpointed(g, u?.at ? Date.parse(u.at) : NaN);
}

/**
 * The verdict `g` cannot place the figure `u` yet: the figure came after the transcript was read for the
 * turns after the marker and may be of the checkpoint's own turn (core `figureAfterCheckpoint` takes it
 * as after until then), so the verdict is computed again for it.
 */
export function turnUnread(g: GuardView | undefined, u: ContextUsage | null | undefined): boolean {
  const at = u?.at ? Date.parse(u.at) : NaN;
  const m = g?.markerMtime;
  if (!g?.allow || typeof m !== 'number' || !Number.isFinite(at) || at <= m || pastCheckpointTurn(at, m)) return false;
  const t = g.turnAfter;
  return !t || (t.began === null && at > t.read);
}

/** The guard's line in the tooltip: the sentence after its icon. */
export function guardLine(t: T, g: GuardView, trusted = true): string {
  return `${!g.installed || g.stopped ? '$(unlock)' : g.allow ? '$(shield)' : '$(circle-slash)'} ${guardSentence(t, g, code, trusted)}`;
}

/** The tooltip's lines on the status line relay that does not run (after the guard's line), or none. */
function relayLines(t: T, g: GuardView | undefined): string[] {
  const lines: string[] = [];
  if (g?.relayHidden) lines.push('', `$(warning) ${relayHiddenText(t, g.relayHidden, code)}`);
  if (g?.relayStopped) lines.push('', `$(warning) ${fileSaid(t, relayStoppedSaid(g.relayStopped), code)}`);
  return lines;
}

/**
 * Why Claude Code's own context figure does not reach the meter, and what to do (the words the install
 * dialog says it in): the relay in `file` does not run, the statusLine of `by` runs instead. `name`
 * shows a file name (the tooltip's Markdown passes `code`).
 */
export function relayHiddenText(t: T, h: { file: string; by: string }, name: (s: string) => string = (s) => s): string {
  return t(
    "statusLine: the relay in {0} does not run in this project: {1} sets a status line of its own, which Claude Code takes over it, so Claude Code's own context figure is not recorded for the meter. {2} wraps that status line instead, or remove the statusLine from {1}.",
    name(h.file),
    name(h.by),
    t('"Install guard hooks" with .claude/settings.local.json and the status line relay'),
  );
}

/** The command the guard's line names when the hook is not installed in the folder. */
export const INSTALL_COMMAND = 'sessionLedger.installHooks';

/** VS Code's own command that opens the workspace trust editor: the one step that works in Restricted Mode. */
export const TRUST_COMMAND = 'workbench.trust.manage';

/** What Restricted Mode allows, and the one step that lifts it (a sentence both the tooltip and the label say). */
export function restrictedSentence(t: T): string {
  return t(
    'Restricted Mode: Session Ledger reads and shows, but writes nothing (no marker, no guard hooks). Trust this folder to checkpoint from here.',
  );
}

/** A blocking check that fails now, as the status item names it: its system, its id and its message. */
export interface BlockingView {
  system: SystemId;
  checkId: string;
  message: Msg;
}

/**
 * The blocking checks that fail now in `report` (core `blockingChecks`, what a checkpoint decides on):
 * while any fails, a checkpoint is refused, so the item names them and opens the first one's row.
 */
export function blockingOf(report: Pick<WorkspaceReport, 'systems'> | undefined): BlockingView[] {
  return report ? blockingChecks(report).map((c) => ({ system: c.system, checkId: c.id, message: saidMsg(c) })) : [];
}

/** A blocking check as the checklist's top note names it, in plain words: `S3 next-action: The next action is empty …`. */
function blockingName(t: T, b: BlockingView): string {
  return `${b.system} ${b.checkId}: ${plainText(render(b.message, t))}`;
}

/** The sentence that a blocking check stops the checkpoint, naming each (`names` joined), and the way to the fix. */
function blockedSentence(t: T, blocking: readonly BlockingView[], names: string): string {
  return blocking.length === 1
    ? t(
        'A blocking check fails, so a checkpoint is refused: {0} Fix it first; the item opens its row in the checklist.',
        names,
      )
    : t(
        "{0} blocking checks fail, so a checkpoint is refused: {1} Fix them first; the item opens the first one's row in the checklist.",
        blocking.length,
        names,
      );
}

/** The label's sentence on the blocking checks that fail, or '' when none does. */
function blockedLabel(t: T, blocking: readonly BlockingView[]): string {
  return blocking.length ? blockedSentence(t, blocking, blocking.map((b) => blockingName(t, b)).join(' ')) : '';
}

/** A command link that opens the checklist on `focus` (arguments: no folder, as the item's other links). */
function checklistLink(focus: ChecklistFocus): string {
  return `command:sessionLedger.openChecklist?${encodeURIComponent(JSON.stringify([null, focus]))}`;
}

/** The check the item's click opens the checklist on: the first blocking check that fails, or none. */
function focusOf(blocking: readonly BlockingView[]): ChecklistFocus | undefined {
  return blocking.length ? { system: blocking[0].system, checkId: blocking[0].checkId } : undefined;
}

/** The tooltip's lines on the blocking checks that fail: the sentence, then each, a link to its row. */
function blockedLines(t: T, blocking: readonly BlockingView[]): string[] {
  if (!blocking.length) return [];
  const head =
    blocking.length === 1
      ? t('A blocking check fails, so a checkpoint is refused: fix it first.')
      : t('{0} blocking checks fail, so a checkpoint is refused: fix them first.', blocking.length);
  return [
    '',
    `$(error) ${head}`,
    '',
    ...blocking.map(
      (b) =>
        `- [${b.system} ${b.checkId}](${checklistLink({ system: b.system, checkId: b.checkId })}): ${mdText(plainText(render(b.message, t)))}`,
    ),
  ];
}

export interface StatusView {
  /** Visible text: the level's icon and the figure, so the level shows without the background colour (High Contrast has none). */
  text: string;
  /** Plain text a screen reader speaks for the item (its accessibilityInformation label): no Markdown, no icon names. */
  label: string;
  /** Markdown. */
  tooltip: string;
  /** Theme colour id of the background, or undefined. */
  background?: 'statusBarItem.warningBackground' | 'statusBarItem.errorBackground';
  /**
   * While a blocking check fails: the check the item's click opens the checklist on (a checkpoint would be
   * refused). Absent otherwise: the click is Checkpoint now.
   */
  focus?: ChecklistFocus;
}

/**
 * What the item's icon and background colour say, one rule for both: a colour means "act now", so it
 * shows only while the item's words ask for a checkpoint. Past a mark, `propose` ("Checkpoint proposed",
 * warning colour) or `urgent` ("Checkpoint now", error colour); `done` once the checkpoint the mark asks
 * for is made and covers the session as it is now ("Checkpoint done", `checkpointed`): no colour, and the
 * check the tooltip's line shows, though the figure is still past the mark (the item's words still say
 * which mark; the next step, the system's own closing, is no longer one to warn about). Under the first
 * mark, `ok`. Once the checkpoint no longer covers the session (a turn after it, a state file changed since,
 * the guard stopping /compact), the colour comes back with "Checkpoint now" or "Checkpoint proposed".
 */
export type ShownLevel = MeterLevel | 'done';

/** The item's level as its icon and colour show it (`ShownLevel`): `level`, or `done` past a mark once checkpointed. */
export function shownLevel(level: MeterLevel, guard: GuardView | undefined, u?: ContextUsage): ShownLevel {
  return level !== 'ok' && checkpointed(guard, u) ? 'done' : level;
}

export const BACKGROUND: Record<ShownLevel, StatusView['background']> = {
  ok: undefined,
  propose: 'statusBarItem.warningBackground',
  urgent: 'statusBarItem.errorBackground',
  done: undefined,
};

/** The icon before the figure: the level shows in the icon's shape, not only in the background colour. */
export const LEVEL_ICON: Record<ShownLevel, string> = {
  ok: '$(pulse)',
  propose: '$(warning)',
  urgent: '$(error)',
  done: '$(check)',
};

/** Control characters (C0 but tab, DEL, C1) and Unicode line/paragraph separators. */
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Inline code that cannot break out of its span (transcript content is not trusted). */
export function code(s: string): string {
  const clean = s.replace(CONTROLS, ' ').replace(/`/g, ' ').slice(0, 200);
  return `\`${clean}\``;
}

/** Plain text for a Markdown tooltip: no control characters, every Markdown, HTML and theme-icon character escaped. */
export function mdText(s: string): string {
  return s
    .replace(CONTROLS, ' ')
    .slice(0, 200)
    .replace(/[\\`*_{}[\]()#+\-.!|<>~$&:]/g, (c) => `\\${c}`);
}

/**
 * Percent as shown: whole numbers, one decimal below 10 % (so 0.4 % is not "0%"), cut down, never
 * rounded up (shownPercent): the figure shown reaches a threshold only when the context has.
 */
export function pct(p: number): string {
  if (!Number.isFinite(p)) return '?';
  return `${shownPercent(p, p > 0 && p < 10 ? 1 : 0)}%`;
}

function tokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `84.6k`, `1.2M`: tokens in the status bar when the window (and so a percentage) is unknown. */
function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}

/** A session's compactions (Claude Code), and the advice of a switched-on system whose seed gives one after N of them. */
export interface CompactionsView {
  count: number | null;
  advice: CompactionsAdvice | null;
}

/** The advice is due: as many compactions as its seed says (S0's: after 2–3, checkpoint and /clear). */
export function adviseClearAfterCompactions(c: CompactionsView | undefined): boolean {
  return !!c?.advice && (c.count ?? 0) >= c.advice.at;
}

/** A percent as spoken: `46`, `4.4` (the word "percent" follows in the sentence). */
function spokenPct(p: number): string {
  return pct(p).replace(/%$/, '');
}

/**
 * The item's accessible label, one plain sentence: the figure, the mark it passed and whose mark
 * it is (`Session Ledger: context 46 percent, past the urgent mark for S3. Checkpoint now.`), then
 * what the guard would decide. A system's figures are named by its id; the default or the user's
 * own figures by their percent. In Restricted Mode (`trusted` false) it ends with what is true there and
 * the one step that works: trusting the folder.
 */
export function statusLabel(
  t: T,
  u: ContextUsage,
  profile: MeterProfile,
  level: MeterLevel,
  guard?: GuardView,
  trusted = true,
  /** Said after the head: the figure's age when it is old. */
  aged = '',
  /** The blocking checks that fail now (`blockingOf`): said and named instead of asking for a checkpoint. */
  blocking: readonly BlockingView[] = [],
): string {
  const bySystem = /^S\d$/.test(profile.profile);
  const done = checkpointed(guard, u);
  let head: string;
  if (u.percent === null || u.windowTokens === null) {
    head = t(
      'Session Ledger: context {0} tokens used; the window of this model is unknown, so there is no percentage.',
      tokens(u.usedTokens),
    );
  } else {
    const p = spokenPct(u.percent);
    if (blocking.length && !done && level === 'urgent') {
      // Past a mark, but a checkpoint would be refused: the mark alone, then what blocks it (below).
      head = bySystem
        ? t('Session Ledger: context {0} percent, past the urgent mark for {1}.', p, profile.profile)
        : t(
            'Session Ledger: context {0} percent, past the urgent mark ({1} percent).',
            p,
            profile.urgent ?? profile.propose,
          );
    } else if (blocking.length && !done && level === 'propose') {
      head = bySystem
        ? t('Session Ledger: context {0} percent, past the checkpoint mark for {1}.', p, profile.profile)
        : t('Session Ledger: context {0} percent, past the checkpoint mark ({1} percent).', p, profile.propose);
    } else if (done && level === 'urgent') {
      // Past a mark, but the checkpoint it asks for is made: say so, not "checkpoint" again.
      head = bySystem
        ? t('Session Ledger: context {0} percent, past the urgent mark for {1}. Checkpoint done.', p, profile.profile)
        : t(
            'Session Ledger: context {0} percent, past the urgent mark ({1} percent). Checkpoint done.',
            p,
            profile.urgent ?? profile.propose,
          );
    } else if (done && level === 'propose') {
      head = bySystem
        ? t(
            'Session Ledger: context {0} percent, past the checkpoint mark for {1}. Checkpoint done.',
            p,
            profile.profile,
          )
        : t(
            'Session Ledger: context {0} percent, past the checkpoint mark ({1} percent). Checkpoint done.',
            p,
            profile.propose,
          );
    } else if (level === 'urgent') {
      head = bySystem
        ? t('Session Ledger: context {0} percent, past the urgent mark for {1}. Checkpoint now.', p, profile.profile)
        : t(
            'Session Ledger: context {0} percent, past the urgent mark ({1} percent). Checkpoint now.',
            p,
            profile.urgent ?? profile.propose,
          );
    } else if (level === 'propose') {
      head = bySystem
        ? t(
            'Session Ledger: context {0} percent, past the checkpoint mark for {1}. Checkpoint proposed.',
            p,
            profile.profile,
          )
        : t(
            'Session Ledger: context {0} percent, past the checkpoint mark ({1} percent). Checkpoint proposed.',
            p,
            profile.propose,
          );
    } else {
      head = bySystem
        ? t(
            'Session Ledger: context {0} percent, under the checkpoint mark for {1} ({2} percent).',
            p,
            profile.profile,
            profile.propose,
          )
        : t('Session Ledger: context {0} percent, under the checkpoint mark ({1} percent).', p, profile.propose);
    }
  }
  return labelWith(t, [head, aged, blockedLabel(t, blocking)].filter(Boolean).join(' '), guard, trusted);
}

/** A label's head, then what the guard would decide, then (in Restricted Mode) what is true there. */
function labelWith(t: T, head: string, guard: GuardView | undefined, trusted: boolean): string {
  const said = guard ? `${head} ${guardSentence(t, guard, undefined, trusted)}` : head;
  return trusted ? said : `${said} ${restrictedSentence(t)}`;
}

export function statusView(
  t: T,
  u: ContextUsage,
  profile: MeterProfile,
  level: MeterLevel,
  guard?: GuardView,
  compactions?: CompactionsView,
  now = Date.now(),
  /** False in Restricted Mode: no command that writes is offered, and trusting the folder is. */
  trusted = true,
  /**
   * Given only when the figure is old (core `notRunning` of its time): when it was taken (ms), and whether
   * its session still counts as running (its transcript written within the session window). The figure is
   * said with its age; for a session that is not running no checkpoint is proposed or urged (no colour, no
   * "Checkpoint proposed").
   */
  age: FigureAge | null = null,
  /**
   * The blocking checks that fail now (`blockingOf`): a checkpoint would be refused, so the item names them
   * where it would ask for one, offers their rows instead of Checkpoint now, and its click opens the first.
   */
  blocking: readonly BlockingView[] = [],
): StatusView {
  // When the figure was taken, as the user's clock says it (the agent's records give it in UTC).
  const at = u.at ? Date.parse(u.at) : NaN;
  const known = u.percent !== null && u.windowTokens !== null;
  const old = !!age && !age.running;
  const shown = old ? 'ok' : shownLevel(level, guard, u);
  const oldSaid = age ? ageSentence(t, age, now) : '';
  const icon = LEVEL_ICON[shown];
  const text = known ? `${icon} ${pct(u.percent as number)}` : `${icon} ${shortTokens(u.usedTokens)} ${t('tokens')}`;
  const lines = headLines(t, u);
  lines.push(`${t('Model')}: ${u.model ? code(u.model) : t('unknown')}  `);
  if (known)
    lines.push(
      `${t('Used')}: ${tokens(u.usedTokens)} / ${tokens(u.windowTokens as number)} ${t('tokens')} (${pct(u.percent as number)})  `,
    );
  else
    lines.push(
      `${t('Used')}: ${tokens(u.usedTokens)} ${t('tokens')} · ${t('context window unknown for this model (no percentage)')}  `,
    );
  lines.push(...thresholdLines(t, profile));
  const src = u.source === 'statusline' ? t("Claude Code's status line") : t('transcript');
  lines.push(
    `${t('Source')}: ${src}${u.afterCompaction ? ` · ${t('after compaction')}` : ''}${Number.isFinite(at) ? ` · ${mdText(whenText(t, at, now))}` : ''}  `,
  );
  if (compactions?.count) lines.push(`${t('Compactions in this session')}: ${compactions.count}  `);
  if (guard) lines.push('', guardLine(t, guard, trusted));
  lines.push(...relayLines(t, guard));
  const due = adviseClearAfterCompactions(compactions) ? compactions?.advice : null;
  if (due) lines.push('', `$(history) ${t(due.said.id, compactions?.count ?? 0)}`);
  if (oldSaid) lines.push('', `$(history) ${oldSaid}`);
  if (shown === 'done')
    lines.push(
      '',
      `$(check) ${t('Checkpoint done: the state is saved; start the fresh context as your system says.')}`,
    );
  else if (blocking.length) lines.push(...blockedLines(t, blocking));
  else if (shown === 'urgent') lines.push('', `$(error) ${t('Past the urgent threshold: checkpoint now.')}`);
  else if (shown === 'propose') lines.push('', `$(warning) ${t('Checkpoint proposed.')}`);
  if (shown === 'done') lines.push(...blockedLines(t, blocking));
  lines.push(...actionLines(t, guard, trusted, blocking));
  const focus = focusOf(blocking);
  return {
    text,
    label: old
      ? oldLabel(t, u, oldSaid, guard, trusted, blocking)
      : statusLabel(t, u, profile, level, guard, trusted, oldSaid, blocking),
    tooltip: lines.join('\n'),
    background: BACKGROUND[shown],
    ...(focus ? { focus } : {}),
  };
}

/**
 * What is said of an old figure: how old it is, and for a session that is not running (nothing written
 * within the session window) that it is not the one running and no checkpoint is proposed for it.
 */
function ageSentence(t: T, age: FigureAge, now: number): string {
  const ago = agoText(t, now - age.at);
  return age.running
    ? t('The figure is from {0}: the agent has written no newer one.', ago)
    : t(
        'The figure is from {0}: its session has written nothing since, so it is not the one running and no checkpoint is proposed for it.',
        ago,
      );
}

/** The accessible label of an old figure: the figure, how old it is, then what the guard would decide. */
function oldLabel(
  t: T,
  u: ContextUsage,
  said: string,
  guard: GuardView | undefined,
  trusted: boolean,
  blocking: readonly BlockingView[],
): string {
  const head =
    u.percent === null || u.windowTokens === null
      ? t(
          'Session Ledger: context {0} tokens used; the window of this model is unknown, so there is no percentage.',
          tokens(u.usedTokens),
        )
      : t('Session Ledger: context {0} percent.', spokenPct(u.percent));
  return labelWith(t, [head, said, blockedLabel(t, blocking)].filter(Boolean).join(' '), guard, trusted);
}

/** The tooltip's heading and the line of the agent and session. */
function headLines(t: T, s: { agent: 'claude' | 'codex'; sessionId: string | null }): string[] {
  const agent = s.agent === 'claude' ? 'Claude Code' : 'Codex CLI';
  return [
    `**${t('Session Ledger — context')}**`,
    '',
    `${t('Agent')}: ${agent}${s.sessionId ? ` · ${t('session')} ${code(s.sessionId)}` : ''}  `,
  ];
}

/** The tooltip's line of the marks (and of settings that put them the other way round). */
function thresholdLines(t: T, profile: MeterProfile): string[] {
  const th = profile.urgent === null ? `${profile.propose}%` : `${profile.propose}% / ${profile.urgent}%`;
  const lines = [`${t('Thresholds')} (${profile.profile}): ${th}  `];
  if (profile.inverted) lines.push(`$(warning) ${invertedText(t, profile.inverted)}  `);
  return lines;
}

/** The tooltip's last lines: what can be done from here (in Restricted Mode, what is true there and trusting the folder). */
function actionLines(
  t: T,
  guard: GuardView | undefined,
  trusted: boolean,
  blocking: readonly BlockingView[] = [],
): string[] {
  const lines: string[] = [];
  // While a blocking check fails a checkpoint would be refused: the checklist, on the first one's row, instead.
  const focus = focusOf(blocking);
  if (trusted)
    lines.push(
      '',
      [
        ...(focus ? [] : [`[$(save) ${t('Checkpoint now')}](command:sessionLedger.checkpointNow)`]),
        `[$(checklist) ${t('Open checklist')}](${focus ? checklistLink(focus) : 'command:sessionLedger.openChecklist'})`,
        // The guard's line above says to run it: the step is a click here too.
        ...(guard && !guard.installed ? [`[$(shield) ${t('Install guard hooks')}](command:${INSTALL_COMMAND})`] : []),
      ].join(' · '),
    );
  else
    lines.push(
      '',
      `$(workspace-untrusted) ${restrictedSentence(t)}`,
      '',
      `[$(workspace-trusted) ${t('Manage Workspace Trust')}](command:${TRUST_COMMAND}) · [$(checklist) ${t('Open checklist')}](command:sessionLedger.openChecklist)`,
    );
  return lines;
}

/**
 * The item for a session that has no figure yet (nothing the agent answered in it so far: a session /clear
 * just started, a new one): `--`, as the status line says it, never the figure of another session, with
 * what is known (the session, the marks, the guard's verdict). No mark is passed, so no colour.
 */
export function noFigureView(
  t: T,
  s: { agent: 'claude' | 'codex'; sessionId: string | null },
  profile: MeterProfile,
  guard?: GuardView,
  trusted = true,
  /** The blocking checks that fail now (`blockingOf`), as `statusView` takes them. */
  blocking: readonly BlockingView[] = [],
): StatusView {
  const lines = headLines(t, s);
  lines.push(`${t('Used')}: ${t('no figure yet (the agent has reported none in this session so far)')}  `);
  lines.push(...thresholdLines(t, profile));
  if (guard) lines.push('', guardLine(t, guard, trusted));
  lines.push(...relayLines(t, guard));
  lines.push(...blockedLines(t, blocking));
  lines.push(...actionLines(t, guard, trusted, blocking));
  const head = t('Session Ledger: context not known yet: the agent has reported no figure in this session.');
  const focus = focusOf(blocking);
  return {
    text: `${LEVEL_ICON.ok} --`,
    label: labelWith(t, [head, blockedLabel(t, blocking)].filter(Boolean).join(' '), guard, trusted),
    tooltip: lines.join('\n'),
    ...(focus ? { focus } : {}),
  };
}
