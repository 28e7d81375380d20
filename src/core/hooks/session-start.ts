/**
 * The SessionStart hook: records the session Claude Code (or Codex CLI, `--codex`) announces, with its
 * client (`.claude/session-ledger/session.json`), and hands the new context, through
 * `hookSpecificOutput.additionalContext`, on every source
 * (startup, resume, clear, compact):
 * - S1's attestation, verified at every start: a TAMPERED handoff is said at once, first;
 * - S2's line `Checkpoint marker for this session: <path>` (the file the checkpoint writes, said
 *   written only when it is there), and the CLI named as the hook's own command runs it;
 * - after `/clear` or `/compact` also the resume block: the file to read, the next action (S2's
 *   NEXT verbatim, within its lines), the open UNCONFIRMED items to validate first (S0's
 *   post-clear protocol) and the resume prompt.
 * - on every source, S0's `.agents.yml` that cannot be read, in check's words, beside the ledger named
 *   (whether S0 keeps its state at that default place is not known then) or in its place; and a home
 *   file that cannot be read (a folder, no read permission, binary), said not read, in the same words.
 * It runs each system's `resume` alone, not its rules (on a start or a resume only what every start
 * says: S1's attestation, S0's configuration, a home not read), and starts no git process: the verdicts and findings are `status`'s,
 * `checkpoint`'s and the guard's, and the context says where to ask for them.
 * Nothing is printed when no state file is detected. Nothing here can block `/clear`, and nothing
 * here throws.
 */
import * as path from 'node:path';
import { evaluateSystems } from '../report/evaluate';
import { lstatOrNullSync } from '../files/fsread';
import { cliCommand } from './guard';
import { appendHookLog, hookRun, str, type HookRunOptions } from './io';
import { isSessionId, markerRel } from '../checkpoint/marker';
import { insideRel } from '../files/atomic';
import type { Check, SystemReport, WorkspaceReport } from '../model/model';
import { parentChain, writeSessionRecord } from './session-record';
import { openManualItems, resumePromptFor } from '../checkpoint/checkpoint';
import { codeSpans } from '../markdown/shown-line';
import { factsOf, systemName } from '../systems/facts';
import { HOOK_SYSTEMS, hookHomeOf } from '../systems/hooks';
import { ENGLISH, invokedAs, oneLine, sayHint } from '../model/messages';
import { terminalSafe } from '../markdown/format-chars';
import { withoutFillerAsides } from '../markdown/text';

export interface SessionStartOptions extends HookRunOptions {
  /** The client whose hook runs (`hook session-start --codex`: Codex CLI), recorded with the session. Default: Claude Code. */
  agent?: 'claude' | 'codex';
}

export interface SessionStartResult {
  /** What the hook prints on stdout (the hook JSON), or null for nothing. */
  stdout: string | null;
  additionalContext: string | null;
  source: string | null;
  sessionId: string | null;
  /** Absolute path of the session record written, or null. */
  recorded: string | null;
  root: string;
  log: string;
}

function clip(s: string, n = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/** The most of a next action given verbatim (S2's NEXT): its system's whole state budget, 5,200 characters. */
const VERBATIM_MAX = 5200;

/** A next action that is only a template's placeholder (`<planned next step>`, `TBD`): nothing to do yet. */
const TEMPLATE_ONLY = /^(?:<[^<>/:`]*>|\{\{[^{}]*\}\}|tbd|tba|todo|\.\.\.|…)$/i;

/**
 * An HTML comment as Markdown takes one inline (markdown-it's rule, /<!---?>|<!--(?:[^-]|-[^-]|--[^>])*-->/):
 * `<!-->` and `<!--->` are whole; one never closed is text. Otherwise a comment ends at the first `>`
 * after its `<!--` whose run of dashes (counted from the comment's body on) is 3k+2 long: the body's
 * parts take a dash before any other character, two before any but `>`, three in a row, so only such a
 * run can close it. Found from a list of those `>`, in time linear in the text: the pattern scanned to
 * the end again from each `<!--` that no `-->` closes, so a next action of 50,000 `<!--` held the
 * SessionStart hook 5 s.
 */
class Comments {
  /** Each `>` after a run of 3k+2 dashes, in order. */
  private readonly closers: number[] = [];

  constructor(private readonly s: string) {
    let dashes = 0;
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '>' && dashes % 3 === 2) this.closers.push(i);
      dashes = s[i] === '-' ? dashes + 1 : 0;
    }
  }

  /** The first comment that starts at or after `from`: [start, end), or null. */
  next(from: number): [number, number] | null {
    const s = this.s;
    for (let at = s.indexOf('<!--', from); at >= 0; at = s.indexOf('<!--', at + 1)) {
      if (s.startsWith('>', at + 4)) return [at, at + 5];
      if (s.startsWith('->', at + 4)) return [at, at + 6];
      // The dashes that open the body are counted from the body's start, not from the `<!--`.
      let e = at + 4;
      while (s[e] === '-') e++;
      if (s[e] === '>' && (e - at - 4) % 3 === 2) return [at, e + 1];
      const close = this.closerAfter(e);
      if (close >= 0) return [at, close + 1];
    }
    return null;
  }

  /** The first closer after `i`, or -1. */
  private closerAfter(i: number): number {
    const c = this.closers;
    let lo = 0;
    let hi = c.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (c[mid] <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo < c.length ? c[lo] : -1;
  }
}

/** `s` without its HTML comments, outside code spans (a comment shown as code is text the reader sees). */
function withoutComments(s: string): string {
  if (!s.includes('<!--')) return s;
  const spans = codeSpans(s);
  const comments = new Comments(s);
  let out = '';
  let at = 0;
  let k = 0;
  for (let m = comments.next(0); m;) {
    const [start, end] = m;
    while (k < spans.length && spans[k][1] <= start) k++;
    // A comment that starts inside a code span is code: look again after the span.
    if (k < spans.length && spans[k][0] <= start) {
      m = comments.next(spans[k][1]);
      continue;
    }
    out += `${s.slice(at, start)} `;
    at = end;
    m = comments.next(end);
  }
  return out + s.slice(at);
}

/** A path as the new context is told it: one that starts with `~` or `$` is a workspace folder's, said `./~/…` so no shell takes it for the home folder. */
function shownPath(rel: string): string {
  return /^[~$]/.test(rel) ? `./${rel}` : rel;
}

/**
 * The Next action line of a system: verbatim where its facts say so (S2's NEXT, one line by its rule,
 * cut only past VERBATIM_MAX, said so), others clipped. An HTML comment in it is left out (outside
 * code): text the file shows no reader is no instruction for the agent. A template's placeholder is
 * said as such.
 */
function nextLine(s: SystemReport): string {
  const next = s.next ? withoutComments(s.next).trim() : '';
  if (!next) return '(none recorded — ask the user what to do next)';
  // An aside after the placeholder ("TBD (owner: alice)") does not fill it in.
  if (TEMPLATE_ONLY.test(withoutFillerAsides(next.replace(/\s+/g, ' ')).replace(/[.。]$/, '')))
    return `(only the template's placeholder is written: ${clip(next, 80)} — ask the user what to do next)`;
  if (!factsOf(s.id).resume.nextVerbatim) return clip(next);
  const line = next.replace(/\r?\n/g, ' ');
  if (line.length <= VERBATIM_MAX) return line;
  // Never between the two halves of a character outside the Basic Multilingual Plane.
  const cut = /[\ud800-\udbff]/.test(line[VERBATIM_MAX - 1]) ? VERBATIM_MAX - 1 : VERBATIM_MAX;
  return `${line.slice(0, cut)}… (cut at ${cut} characters: read the rest in ${shownPath(oneLine(s.home))})`;
}

/** What a system says first at session start (S1: its attestation, TAMPERED loudly): each system's home decides. */
export function startLines(report: WorkspaceReport): Array<{ line: string; loud: boolean }> {
  return report.systems.filter((s) => !s.skipped).flatMap((s) => hookHomeOf(s.id).atStart?.(s) ?? []);
}

/** Where the new context finds the checks of the state files (the hook gives none of them). */
function checksLine(cli: string): string {
  return `Checks of these files: \`${cli} status\` (\`${cli} checkpoint\` runs them too).`;
}

/**
 * S2's line naming this session's marker: the file the checkpoint writes before the next /compact (S2's
 * seed has the agent look for this line and write that file), said written only when it is there. It
 * promises no /compact: the guard decides when one is asked for, on what changed since the marker.
 * The checkpoint refuses while a manual item is open (`manual`: their `--confirm` ids), and only the
 * user says one is true: the line says the command writes it once the user has confirmed them.
 */
export function markerLine(
  sessionId: string | null,
  cli = 'session-ledger',
  written = false,
  manual: readonly string[] = [],
): string {
  const shared = sessionId ? '' : ' (no session id known: shared marker)';
  // The session named: after /clear the session it replaced may still count as running, and a checkpoint
  // without one asks which.
  const write = `\`${cli} checkpoint ${sessionId ? `--session ${sessionId}` : '--shared'}\``;
  const once = manual.length ? ` once the user has confirmed its manual items (\`--confirm ${manual.join(',')}\`)` : '';
  return written
    ? `Checkpoint marker for this session: ${markerRel(sessionId)}${shared} (written; before it lets a manual /compact through, the PreCompact guard checks what changed since; after changes, ${write} writes it again${once}).`
    : `Checkpoint marker for this session: ${markerRel(sessionId)}${shared} (not written yet: ${write} writes it${once}; the PreCompact guard stops a manual /compact until it is there).`;
}

/** A check's fix hint, its commands run as `cli`, clipped, then a space; '' without one. */
function hintOf(c: Check, cli: string): string {
  return c.hint ? `${clip(sayHint(invokedAs(ENGLISH, cli), c))} ` : '';
}

/** A system's configuration that could not be read (S0's `.agents.yml`): its failing `config` check, if any. */
function unreadConfig(s: SystemReport): Check | undefined {
  return s.checks.find((x) => x.id === 'config' && x.status === 'fail');
}

/**
 * What a system whose home was found says of its configuration that could not be read (S0's
 * `.agents.yml`): check's words for it (why, and what to do), as lines of the system's item (`indent`
 * before each); `where` names the home ("here" under its item).
 */
function unreadConfigLines(s: SystemReport, cli: string, where = 'here', indent = '   '): string[] {
  const c = unreadConfig(s);
  if (!c) return [];
  const file = c.path ? shownPath(oneLine(c.path)) : 'its configuration';
  const inFile = c.path && !c.message.includes(c.path) ? ` (${file})` : '';
  return [
    `${indent}${file} cannot be read, so whether ${s.id} keeps its state ${where} (the default place) is not known: ${clip(c.message)}${inFile}`,
    `${indent}${hintOf(c, cli)}Tell the user (\`${cli} check\` shows it).`,
  ];
}

/**
 * Where a system whose home was not found keeps its state, when its configuration could not be read
 * (S0's `.agents.yml`): not known, with check's words for why (`head` starts the first line), or
 * nothing when its configuration was read.
 */
function unknownHomeLines(s: SystemReport, cli: string, head: string, indent = '   '): string[] {
  const c = unreadConfig(s);
  if (!c) return [];
  const inFile = c.path && !c.message.includes(c.path) ? ` (${shownPath(oneLine(c.path))})` : '';
  return [
    `${head}Where ${systemName(s.id)} keeps its state is not known: ${clip(c.message)}${inFile}`,
    `${indent}Tell the user (\`${cli} check\` shows it); do not read another file in its place.`,
  ];
}

/** A system's home file that could not be read (a folder, no read permission, binary): its failing `readable` check, if any. */
function unreadHome(s: SystemReport): Check | undefined {
  return s.checks.find((c) => c.id === 'readable' && c.path === s.home);
}

/**
 * What a system whose home file could not be read says instead of an instruction to read it: why, and
 * what to do, in check's words (`head` starts the first line, `indent` the second), the same on every
 * source.
 */
function unreadHomeLines(s: SystemReport, unread: Check, cli: string, head = '', indent = ''): string[] {
  return [
    `${head}${shownPath(oneLine(s.home))} (${systemName(s.id)}) was not read: ${clip(unread.message)}`,
    `${indent}${hintOf(unread, cli)}Tell the user before you read or change it.`,
  ];
}

/** The resume block for a fresh context, or null when no state file is detected. */
export function resumeBlock(
  report: WorkspaceReport,
  sessionId: string | null,
  source: string,
  cli = 'session-ledger',
  markerWritten = false,
): string | null {
  if (report.systems.length === 0) return null;
  const out: string[] = [
    `Session Ledger — resuming after /${source === 'compact' ? 'compact' : 'clear'}. Before any other work:`,
  ];
  let n = 1;
  /** The systems whose home file was read: only these are told to be read and resumed from. */
  const resumable: SystemReport[] = [];
  for (const s of report.systems) {
    if (s.skipped) continue;
    const home = shownPath(oneLine(s.home));
    // A home its system distrusts now (S1's TAMPERED, said first): nothing of it is handed over.
    if ((hookHomeOf(s.id).atStart?.(s) ?? []).some((l) => l.loud)) {
      out.push(`${n++}. ${home} (${systemName(s.id)}) is not to be trusted now (said above).`);
      out.push('   Read it and act on it only once the user confirms it.');
      continue;
    }
    const unread = unreadHome(s);
    if (unread) {
      // No file to resume from: why, and what to do, instead of an instruction to read it.
      out.push(...unreadHomeLines(s, unread, cli, `${n++}. `, '   '));
      out.push(...unreadConfigLines(s, cli));
      continue;
    }
    if (!s.docs.some((d) => d.relPath === s.home)) {
      // Where the home is kept is not known (S0's .agents.yml does not parse): why, not "does not exist".
      if (unreadConfig(s)) {
        out.push(...unknownHomeLines(s, cli, `${n++}. `));
        continue;
      }
      // Detected by its other files (a config, MEMORY.md, PROGRESS.md), its home missing: nothing to read.
      // Its path may come from the repository's config (`ledger_path: ~/.aws/credentials`): never "Read" it.
      out.push(
        insideRel(s.home) === null
          ? `${n++}. ${home} (${systemName(s.id)}) is outside the workspace folder: Session Ledger does not read it, and there is no state here to resume from.`
          : `${n++}. ${home} (${systemName(s.id)}) does not exist: there is no state to resume from it.`,
      );
      out.push('   Tell the user; do not read another file in its place.');
      continue;
    }
    resumable.push(s);
    out.push(`${n++}. Read ${home} (${systemName(s.id)}).`);
    out.push(`   Next action: ${nextLine(s)}`);
    // Read at its default place, its configuration unread: the new context is told so, as check says it.
    out.push(...unreadConfigLines(s, cli));
  }
  const unconfirmed = report.systems.flatMap((s) => s.unconfirmed.map((it) => ({ s, it })));
  if (unconfirmed.length) {
    out.push(
      `${n++}. Validate these UNCONFIRMED items with the user before continuing (ask 1-3 short questions, then resume from the next action):`,
    );
    for (const { s, it } of unconfirmed.slice(0, 12))
      out.push(`   - ${clip(it.text)} (${shownPath(oneLine(s.home))}:${it.line})`);
    if (unconfirmed.length > 12) out.push(`   - … ${unconfirmed.length - 12} more in the file`);
  }
  // The prompt names each home as the lines above do (`./~/…`).
  const shownIn = (s: SystemReport): SystemReport => ({
    ...s,
    home: shownPath(s.home),
    resumePrompt: s.resumePrompt.split(s.home).join(shownPath(s.home)),
  });
  // One system's prompt on the line; several, one per line below it, indented as the steps' lines are.
  const prompts = resumable.length ? resumePromptFor({ ...report, systems: resumable.map(shownIn) }).split('\n') : [];
  if (prompts.length === 1) out.push(`Resume prompt: ${prompts[0]}`);
  else if (prompts.length) out.push('Resume prompt, one line per state file:', ...prompts.map((p) => `   ${p}`));
  out.push(markerLine(sessionId, cli, markerWritten, openManualItems(report).ids));
  out.push(checksLine(cli));
  return out.join('\n');
}

/** What SessionStart tells the new context for `source`, or null when no state file is detected. */
export function sessionStartContext(
  report: WorkspaceReport,
  sessionId: string | null,
  source: string | null,
  cli = 'session-ledger',
  markerWritten = false,
): string | null {
  if (!report.systems.some((s) => !s.skipped)) return null;
  const out: string[] = [];
  const first = startLines(report);
  // What a system says loudly (S1's TAMPERED) is said at once: before anything else.
  for (const a of first) if (a.loud) out.push(a.line);
  if (source === 'clear' || source === 'compact') {
    const block = resumeBlock(report, sessionId, source, cli, markerWritten);
    if (block) out.push(block);
  } else {
    const on = report.systems.filter((s) => !s.skipped);
    // A home whose place its unread configuration decides (S0's .agents.yml) is not named as if known.
    const unknown = (s: SystemReport) => !s.docs.some((d) => d.relPath === s.home) && !!unreadConfig(s);
    out.push(
      `Session Ledger — session ${source ?? 'start'}: ${on
        .map((s) => `${s.id} ${unknown(s) ? '(where it keeps its state is not known)' : oneLine(s.home)}`)
        .join(', ')}.`,
    );
    // A home that could not be read, and what check says of that configuration, under the list, as the
    // resume block says them.
    for (const s of on) {
      const unread = unreadHome(s);
      if (unread) out.push(...unreadHomeLines(s, unread, cli));
      out.push(
        ...(unknown(s)
          ? unknownHomeLines(s, cli, '', '')
          : unreadConfigLines(s, cli, `at ${shownPath(oneLine(s.home))}`, '')),
      );
    }
    out.push(markerLine(sessionId, cli, markerWritten, openManualItems(report).ids));
    out.push(checksLine(cli));
  }
  for (const a of first) if (!a.loud) out.push(a.line);
  return out.join('\n');
}

/** Run the SessionStart hook from its raw stdin. Never throws. */
export async function sessionStartHook(stdin: string, opts: SessionStartOptions = {}): Promise<SessionStartResult> {
  const { now, parsed, root } = hookRun(stdin, opts);
  const res: SessionStartResult = {
    stdout: null,
    additionalContext: null,
    source: null,
    sessionId: null,
    recorded: null,
    root,
    log: '',
  };
  if (!parsed.ok) {
    res.log = `nothing (malformed stdin: ${parsed.error})`;
    if (opts.log !== false) await appendHookLog(root, 'session-start', res.log, now);
    return res;
  }
  const p = parsed.payload;
  const source = str(p.source);
  const sid = isSessionId(p.session_id) ? p.session_id : null;
  res.source = source;
  res.sessionId = sid;
  const logs: string[] = [];
  try {
    const event = str(p.hook_event_name);
    if (event && event !== 'SessionStart') {
      res.log = `nothing (hook_event_name is ${event}, not SessionStart)`;
      if (opts.log !== false) await appendHookLog(root, 'session-start', res.log, now);
      return res;
    }
    if (sid || str(p.transcript_path)) {
      try {
        res.recorded = await writeSessionRecord(root, {
          session_id: sid,
          transcript_path: str(p.transcript_path),
          source,
          cwd: str(p.cwd),
          at: new Date(now).toISOString(),
          ...parentChain(),
          agent: opts.agent ?? 'claude',
        });
        logs.push(`recorded session ${sid ?? '(no id)'}`);
      } catch (err) {
        logs.push(`could not record the session: ${(err as Error)?.message ?? String(err)}`);
      }
    } else {
      logs.push('no session id to record');
    }
    // Claude Code always names the source; a payload without one is not a session start to speak to.
    // After /clear or /compact the resume block; on a start or a resume only what every start says.
    const rules = source === 'clear' || source === 'compact' ? 'resume' : 'start';
    const report = source ? await evaluateSystems(HOOK_SYSTEMS, root, { now, noGit: true, rules }) : null;
    // The marker is said written only when a file stands at its path (a checkpoint before /clear wrote it).
    const written = !!report && !!lstatOrNullSync(path.join(root, markerRel(sid)))?.isFile();
    const ctx = report ? sessionStartContext(report, sid, source, cliCommand(root, opts), written) : null;
    if (ctx) {
      // Terminal-safe before it is serialised: Claude Code decodes the JSON, so escape sequences and
      // control characters from the repository's files would reach the agent (JSON.stringify writes them
      // as \u escapes, which the CLI's pass over its output does not see). Line breaks and tabs stay.
      const safe = terminalSafe(ctx);
      res.additionalContext = safe;
      res.stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: safe } });
      logs.push(`context for ${report?.systems.map((s) => s.id).join(',')} (source=${source})`);
    } else {
      logs.push(`no state file detected (source=${source ?? 'missing'})`);
    }
  } catch (err) {
    res.stdout = null;
    res.additionalContext = null;
    logs.push(`internal error: ${(err as Error)?.message ?? String(err)}`);
  }
  res.log = logs.join('; ');
  // Only unusual runs are logged: a session start is routine.
  if (opts.log !== false && /error|malformed|could not/.test(res.log))
    await appendHookLog(root, 'session-start', res.log, now);
  return res;
}
