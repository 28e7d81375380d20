/**
 * The report as the CLI prints it: the exact `--json` shape of `status`/`check` (English, with the
 * message ids), and readable text in the user's language (`Language`: each message, fix hint and
 * file not read through its id; English where no translation is given).
 */
import { ALL_FACTS, systemName } from '../systems/facts';
import {
  isSessionItem,
  isBlocking,
  sessionItems,
  type Check,
  type Label,
  type NotRead,
  type WorkspaceReport,
  worstLabel,
} from '../model/model';
import { ENGLISH, oneLine, PROGRAM, said, saidMsg, sayHint, t, type Language, type Msg } from '../model/messages';
import type { Said, SaidPart } from '../model/model';
import { shownLine } from '../markdown/shown-line';
import { commandLines } from '../files/shell';

export interface JsonCheck {
  id: string;
  severity: string;
  status: string;
  message: string;
  path: string | null;
  line: number | null;
  /** The message's English template (`{0}` … for the arguments) and its arguments, for translation. */
  messageId: string;
  args: string[];
  /** The arguments that are messages themselves (a span of time), by position, to translate with it. */
  argMsgs?: Array<SaidPart | null>;
  /** The fix hint, its template and arguments, when there is one. */
  hint?: string;
  hintId?: string;
  hintArgs?: string[];
  hintArgMsgs?: Array<SaidPart | null>;
}

export interface JsonStatus {
  root: string;
  label: Label;
  /** Why `label` is worse than every system's (`overallWhy`), the sentence the text prints under it; absent when it is not. */
  overallWhy?: Said;
  /** Files at a system's path not in its format (present, not read), with the reason; present only when there are some. */
  notRead?: NotRead[];
  /** The manual items about the session (`feedback-stored`, `last-request`), once for every system; absent when no system asks them. */
  sessionChecks?: JsonCheck[];
  systems: Array<{
    id: string;
    label: Label;
    next: string | null;
    docs: Array<{
      path: string;
      role: string;
      sections: Array<{
        key: string;
        title: string;
        line: number;
        items: Array<{ text: string; line: number; flags: string[] }>;
      }>;
    }>;
    checks: JsonCheck[];
  }>;
}

export function jsonCheck(c: Check): JsonCheck {
  const j: JsonCheck = {
    id: c.id,
    severity: c.severity,
    status: c.status,
    message: c.message,
    path: c.path ?? null,
    line: c.line ?? null,
    messageId: c.messageId,
    args: [...c.args],
  };
  if (c.argMsgs) j.argMsgs = [...c.argMsgs];
  if (c.hint !== undefined) {
    j.hint = c.hint;
    if (c.hintId !== undefined) j.hintId = c.hintId;
    if (c.hintArgs !== undefined) j.hintArgs = [...c.hintArgs];
    if (c.hintArgMsgs) j.hintArgMsgs = [...c.hintArgMsgs];
  }
  return j;
}

/** The session's manual items once, as `--json` gives them beside the systems (whose checks leave them out). */
function jsonSessionChecks(r: WorkspaceReport): { sessionChecks?: JsonCheck[] } {
  const items = sessionItems(r);
  return items.length ? { sessionChecks: items.map(jsonCheck) } : {};
}

/** `--json`'s `overallWhy`, beside the overall label: the sentence `overallLine` prints under it (English, with its id and arguments). */
function jsonOverallWhy(r: WorkspaceReport): { overallWhy?: Said } {
  const why = overallWhy(r);
  return why ? { overallWhy: said(why) } : {};
}

/** A system's checks as `--json` and the text list them: the session's manual items are said once, apart. */
const ownChecks = (checks: readonly Check[]): Check[] => checks.filter((c) => !isSessionItem(c));

export function toJsonStatus(r: WorkspaceReport): JsonStatus {
  return {
    root: r.root,
    label: r.label,
    ...jsonOverallWhy(r),
    ...(r.notRead?.length ? { notRead: r.notRead.map((n) => ({ ...n, args: [...n.args] })) } : {}),
    ...jsonSessionChecks(r),
    systems: r.systems.map((s) => ({
      id: s.id,
      label: s.label,
      next: s.next,
      docs: s.docs.map((d) => ({
        path: d.relPath,
        role: d.role,
        sections: d.sections.map((sec) => ({
          key: String(sec.key),
          title: sec.title,
          line: sec.line,
          items: sec.items.map((it) => ({ text: it.text, line: it.line, flags: [...it.flags] })),
        })),
      })),
      checks: ownChecks(s.checks).map(jsonCheck),
    })),
  };
}

export function toJsonChecks(r: WorkspaceReport): {
  root: string;
  label: Label;
  overallWhy?: Said;
  notRead?: NotRead[];
  sessionChecks?: JsonCheck[];
  systems: Array<{ id: string; label: Label; checks: JsonCheck[] }>;
} {
  return {
    root: r.root,
    label: r.label,
    ...jsonOverallWhy(r),
    ...(r.notRead?.length ? { notRead: r.notRead.map((n) => ({ ...n, args: [...n.args] })) } : {}),
    ...jsonSessionChecks(r),
    systems: r.systems.map((s) => ({ id: s.id, label: s.label, checks: ownChecks(s.checks).map(jsonCheck) })),
  };
}

/** What was looked for, from the facts table: `S0 .agents/session_ledger.md, S1 …`. */
export function lookedFor(): string {
  return ALL_FACTS.map((f) => `${f.id} ${f.home}`).join(', ');
}

/** The files present but not read, one line each ("Present, not read:" first), or nothing. */
export function notReadText(r: Pick<WorkspaceReport, 'notRead'>, lang: Language = ENGLISH): string[] {
  if (!r.notRead?.length) return [];
  return [
    lang.msg(t('Present, not read:')),
    ...r.notRead.map((n) => `  ${oneLine(n.path)} — ${lang.say(n.reason, n.reasonId, n.args)}`),
  ];
}

/** What to do when no state file is there: the CLI's starter command, run as `lang` names the program. */
export function startOne(lang: Language = ENGLISH): string {
  const cli = lang.program ?? PROGRAM;
  return lang.msg(t('Start one with `{0} init S0` … `S4` (`{0} init` lists them).', cli));
}

/** What to say when no system was detected: what was looked for, and the files that are there but not read. */
export function nothingDetectedText(r: WorkspaceReport, lang: Language = ENGLISH): string {
  const out = r.notRead?.length
    ? [lang.msg(t('No state file read.')), ...notReadText(r, lang)]
    : [lang.msg(t('No state files detected (looked for {0}).', lookedFor()))];
  out.push(startOne(lang));
  return out.join('\n');
}

const MARK: Record<string, string> = {
  pass: 'ok  ',
  fail: 'FAIL',
  warn: 'warn',
  'manual-open': '[ ] ',
  'manual-done': '[x] ',
  skipped: 'skip',
};

/**
 * The place a check names, as every surface says it: its file, and its line when it has one
 * (`.agents.yml:5`, `memory/.session-handoff.sha256`); undefined when it names no file.
 */
export function checkPlace(c: Pick<Check, 'path' | 'line'>): string | undefined {
  return c.path ? `${oneLine(c.path)}${c.line ? `:${c.line}` : ''}` : undefined;
}

/** A check's line (and its fix hint's, when it has one and does not pass): its mark and id as they are, its words in `lang`. */
export function checkLine(c: Check, lang: Language = ENGLISH): string {
  const place = checkPlace(c);
  const loc = place ? `  (${place})` : '';
  const fix = c.hint && c.status !== 'pass' ? sayHint(lang, c) : '';
  const hint = fix ? `\n          ${lang.say(`fix: ${fix}`, 'Fix: {0}', [fix])}` : '';
  // A check whose severity is information says so, as the Problems panel does, whatever its status.
  const mark = c.severity === 'info' && c.status === 'warn' ? 'info' : (MARK[c.status] ?? c.status);
  return `  ${mark} ${c.id.padEnd(18)} ${lang.msg(saidMsg(c))}${loc}${hint}`;
}

/**
 * Why the overall label is worse than every system's own, or null when it is the worst of theirs: the
 * session's manual items still open. They are the workspace's, asked once for every system, so no
 * system's label counts them and the overall label does (`overallLabel`). Every surface that shows the
 * overall label beside the systems' says this sentence, so the two never seem to disagree.
 */
export function overallWhy(r: Pick<WorkspaceReport, 'systems' | 'label'>): Msg | null {
  if (!r.systems.length || r.label === worstLabel(r.systems.map((s) => s.label))) return null;
  const open = sessionItems(r).filter((c) => c.status === 'manual-open').length;
  if (!open) return null;
  return open === 1
    ? t(
        "This session's manual item is not ticked: the overall label is {0} until it is. Each system's own label leaves it out.",
        r.label,
      )
    : t(
        "This session's {0} manual items are not ticked: the overall label is {1} until they are. Each system's own label leaves them out.",
        open,
        r.label,
      );
}

/**
 * The verdict `check` and `status` end with: the overall label, and under it why it is worse than every
 * system's when it is (`overallWhy`, the sentence the checklist and the tree say beside it).
 */
export function overallLine(r: Pick<WorkspaceReport, 'systems' | 'label'>, lang: Language = ENGLISH): string {
  const why = overallWhy(r);
  return `${lang.say('Overall', 'Overall')}: ${r.label}${why ? `\n${lang.msg(why)}` : ''}`;
}

/**
 * How the session's open manual items are confirmed (`ids`): the lines that say it (core checkpoint's
 * `confirmLines`: the checkpoint command for the session meant). Without one, the checkpoint command
 * with their `--confirm`, the program as the user ran it.
 */
export type ConfirmWith = (ids: readonly string[]) => string[];

/**
 * The session's manual items, once for every system: a heading that says so, then each as a check's
 * line (`[ ] feedback-stored …`), then, while one is open, how to confirm them all (`confirmWith`), as a
 * checkpoint's refusal gives it; nothing when no system asks them.
 */
export function sessionText(
  r: WorkspaceReport,
  lang: Language = ENGLISH,
  indent = '',
  confirmWith?: ConfirmWith,
): string[] {
  const items = sessionItems(r);
  if (!items.length) return [];
  // A checkpoint is a run of its own: it confirms every item, those this command was given too.
  const confirm = items.some((c) => c.status === 'manual-open') ? items.map((c) => c.id) : [];
  // While a check blocks, the command below is refused whatever is confirmed: what comes first is said first.
  const blocked = r.systems.some((s) => !s.skipped && s.checks.some(isBlocking));
  return [
    lang.msg(t('This session (asked once for every system):')),
    ...items.map((c) => `${indent}${checkLine(c, lang)}`),
    ...(confirm.length && blocked
      ? [lang.msg(t('A blocking check fails (FAIL above): fix it first; until then a checkpoint is refused.'))]
      : []),
    ...(!confirm.length
      ? []
      : confirmWith
        ? confirmWith(confirm)
        : [
            lang.msg(t('When they are true, confirm them with:')),
            ...commandLines(lang.program ?? PROGRAM, ['checkpoint', `--confirm ${confirm.join(',')}`]),
          ]),
  ];
}

/** Human-readable checks of every system, then the session's manual items once (`confirmWith`: as `sessionText`). */
export function checksText(
  r: WorkspaceReport,
  lang: Language = ENGLISH,
  onlyProblems = false,
  confirmWith?: ConfirmWith,
): string {
  const out: string[] = [];
  if (r.notRead?.length) out.push(...notReadText(r, lang), '');
  for (const s of r.systems) {
    out.push(`${systemName(s.id)} — ${s.label}`);
    for (const c of ownChecks(s.checks)) {
      if (onlyProblems && (c.status === 'pass' || c.status === 'skipped')) continue;
      out.push(checkLine(c, lang));
    }
  }
  out.push(...sessionText(r, lang, '', confirmWith));
  return out.join('\n');
}

/** Human-readable status: documents, sections, items, checks (`confirmWith`: as `sessionText`). */
export function statusText(r: WorkspaceReport, lang: Language = ENGLISH, confirmWith?: ConfirmWith): string {
  const out: string[] = [`Session Ledger — ${oneLine(r.root)}`];
  if (r.systems.length === 0) {
    out.push(nothingDetectedText(r, lang));
    return out.join('\n');
  }
  if (r.notRead?.length) out.push(...notReadText(r, lang), '');
  for (const s of r.systems) {
    out.push(`${systemName(s.id)} — ${s.label}`);
    // Plain, as every surface that renders no Markdown shows the next action.
    const next = s.next ? shownLine(s.next) : lang.say('(none)', '(none)');
    out.push(`  ${lang.say(`next: ${next}`, 'Next action: {0}', [next])}`);
    for (const d of s.docs) {
      out.push(`  ${oneLine(d.relPath)} [${d.role}]`);
      for (const sec of d.sections) {
        out.push(
          `    ${String(sec.key).padEnd(13)} ${sec.title || lang.say('(preamble)', '(preamble)')}  :${sec.line}`,
        );
        for (const it of sec.items.slice(0, 12)) {
          const flags = it.flags.length ? `  {${it.flags.join(', ')}}` : '';
          const t = it.text.length > 100 ? `${it.text.slice(0, 99)}…` : it.text;
          out.push(`      - ${t}${flags}  :${it.line}`);
        }
        if (sec.items.length > 12) out.push(`      … ${lang.msg(t('{0} more', sec.items.length - 12))}`);
      }
    }
    out.push(`  ${lang.msg(t('checks:'))}`);
    for (const c of ownChecks(s.checks)) out.push(`  ${checkLine(c, lang)}`);
    out.push('');
  }
  const session = sessionText(r, lang, '', confirmWith);
  if (session.length) out.push(...session, '');
  // The verdict last, as `check` prints it.
  out.push(overallLine(r, lang));
  return out.join('\n');
}
