/**
 * `checkpoint`: run the checks and, only when it is true that the agent's memory is complete for
 * every detected system, write the marker (`.claude/.checkpoint-ready.<session-id>`) and hand back
 * the resume prompt and each system's closing step. The result is a typed outcome; the CLI and the
 * extension render it (neither reads its prose).
 *
 * The go-signal is given only when:
 * - something was detected (or the user said `nothing-to-preserve`); a system switched off by its
 *   own configuration (S0 without `session.ledger: true`) is not "something": its seed's skip line;
 * - no blocking check fails;
 * - every manual item is confirmed (S1 Invariant 3: any NO in its Phase 4 checklist blocks the
 *   go-signal, and nothing may mention /compact then);
 * - the session is known: named by the caller, or the only session of this folder, Claude Code or
 *   Codex CLI, that wrote within the last N minutes (a session /clear replaced in its agent process,
 *   as the SessionStart hook's own records prove, is not counted: `liveSessions`); with none that wrote
 *   recently, the newest of either client's. Several that wrote recently, whatever their clients, and none named → refused,
 *   listed.
 *
 * The session id is never invented and never taken from a ledger: it comes from the caller, the
 * newest transcript of the folder, or what the SessionStart hook recorded.
 *
 * One decision for every surface: the CLI, the extension's "Checkpoint now" and the checklist call
 * this function and render its outcome (kind, refusal codes with their message ids, closing steps);
 * none of them refuses or words a closing step of its own. A caller that already holds the report
 * (the extension's store) passes it, and nothing is evaluated a second time; one that keeps manual
 * ticks per agent session passes `reportFor`, so only the ticks given for the session the marker is
 * for count.
 */
import * as path from 'node:path';
import { refuseOwnFileLink, writeAtomic } from '../files/atomic';
import { withWriteLock } from '../files/lock';
import { closingChoice, closingSteps, type ClosingStep } from '../report/closing';
import { guardRuns } from '../hooks/guard-runs';
import { MANUAL_CHECKS } from '../rules/common';
import { clientName } from '../context/records';
import { findSessions } from '../context';
import {
  ambiguous,
  clientOfSession,
  recordedHere,
  sessionWindowMinutes,
  type RecentSession,
} from '../context/sessions';
import { evaluate } from '../report/evaluate';
import { ALL_FACTS, factsOf, resumePrompt as promptFor, systemName } from '../systems/facts';
import { readTextFile } from '../files/fsread';
import { formatMarker, isSessionId, listMarkers, markerRel, plantedAt, SHARED_MARKER_REL } from './marker';
import { stateFileHash } from './freshness';
import { inPlaceOf, liveSessions, type LiveSessions } from './live';
import { gitTracks } from '../git/tracked';
import {
  blockingChecks,
  confirmedItems,
  isSessionItem,
  type Check,
  type NotRead,
  type SystemId,
  type SystemReport,
  type WorkspaceReport,
} from '../model/model';
import { checkLine, notReadText, startOne } from '../report/report';
import { readSessionRecord, SESSION_RECORD_REL } from '../hooks/session-record';
import { rootForms } from '../context/discovery';
import { checksNamed, ENGLISH, oneLine, PROGRAM, saidMsg, t, type Language, type Msg } from '../model/messages';
import { commandLines, shellWord } from '../files/shell';

export type { ClosingStep } from '../report/closing';

export interface CheckpointOptions {
  sessionId?: string;
  /**
   * Write the shared marker `.claude/.checkpoint-ready`, the one the PreCompact guard reads when the
   * client sent no session id, signed by the session `sessionId` names, else the one found here.
   */
  shared?: boolean;
  nothingToPreserve?: boolean;
  /** Manual items the user confirms: `feedback-stored` or `S1:feedback-stored`. */
  confirmed?: Iterable<string>;
  claudeHome?: string;
  codexHome?: string;
  env?: NodeJS.ProcessEnv;
  now?: number;
  /** Minutes within which another session's write makes the session ambiguous. Default: env, else 30. */
  sessionWindowMinutes?: number;
  /**
   * The report the caller already holds (checks run, manual ticks applied as `manual-done`): the
   * decision is taken on it and the workspace is not evaluated again. `confirmed` then only names
   * items for the unknown-id check; the report's own statuses decide.
   */
  report?: WorkspaceReport;
  /**
   * The report with the manual items confirmed for one agent session (the extension keeps its ticks per
   * session; null: no session is known). Manual ticks belong to the session they were given for: once
   * the session the marker is for is known, its manual items are decided on `reportFor(that session)`,
   * never on another session's ticks. While several sessions wrote recently and none is named, no
   * session's ticks count: the manual items are decided once a session is picked.
   */
  reportFor?: (sessionId: string | null) => WorkspaceReport;
  /**
   * The language of `lines` (the CLI's, from the user's locale): the checks, fix hints, files not read,
   * skip lines and the systems' choice in it. English when not given.
   */
  language?: Language;
  /**
   * The `--root` the command was given, as given: the next command a refusal prints (run as
   * `language` names the program) gives it too.
   */
  rootOption?: string;
}

/**
 * What a refusal's next command is made of: the program and the options of the command that was run
 * (`--root`, `--session`, `--shared`), and the `--confirm` ids it then gives (those given, and the open
 * manual items').
 */
interface NextCommand {
  program: string;
  root?: string;
  session?: string;
  shared?: boolean;
  confirm: string[];
  /** Another refusal of the same run asks which session: its commands, one per session, are the next ones. */
  sessionAsked?: boolean;
}

/**
 * The next command a refusal prints, as `commandLines` lays it out: `checkpoint` (with `first`), the
 * same `--root`, `--shared` and `--session` (`session`: the one it names instead), and `--confirm`
 * (not with `first`: `--nothing-to-preserve` confirms nothing).
 */
function nextLines(next: NextCommand, o: { first?: string; session?: string } = {}): string[] {
  const session = o.session ?? next.session;
  const which = [next.shared ? '--shared' : '', session ? `--session ${session}` : ''].filter(Boolean).join(' ');
  return commandLines(next.program, [
    `checkpoint${o.first ? ` ${o.first}` : ''}`,
    ...(next.root !== undefined ? [`--root ${shellWord(next.root)}`] : []),
    ...(which ? [which] : []),
    ...(next.confirm.length && !o.first ? [`--confirm ${next.confirm.join(',')}`] : []),
  ]);
}

/**
 * - `written`: the marker is written; the go-signal holds for every detected system.
 * - `nothing-to-preserve`: the user said there is nothing to keep; the marker says so.
 * - `refused`: no marker; `refusals` say why.
 * - `skipped`: every detected system is switched off by its own configuration; no marker.
 */
export type CheckpointKind = 'written' | 'nothing-to-preserve' | 'refused' | 'skipped';

export type RefusalCode =
  /** `--session` is not a session id. */
  | 'bad-session-id'
  /** `--confirm` names an item that does not exist (a usage error for the CLI). */
  | 'unknown-confirm'
  /** No state file of any system: nothing to vouch for. */
  | 'nothing-detected'
  /** A block check fails. */
  | 'blocking-checks'
  /** Manual items are not confirmed. */
  | 'manual-unconfirmed'
  /** Several sessions of this folder wrote recently and none was named. */
  | 'ambiguous-session'
  /** The marker could not be written. */
  | 'write-failed'
  /**
   * The shared marker would be written while a session's marker path holds something no checkpoint
   * wrote (a link, a folder, a hard-linked file…): the guard stops /compact for that session whatever
   * the shared marker says, so "safe" would be untrue.
   */
  | 'planted-marker'
  | 'tracked-marker';

export interface Refusal {
  code: RefusalCode;
  /** The refusal in one sentence, as a message id and its arguments (a UI translates it; the CLI prints `refusalLines`). */
  said: Msg;
  /** The checks behind it (blocking-checks, manual-unconfirmed). */
  checks: Check[];
  /** unknown-confirm: the ids; bad-session-id: the id given; manual-unconfirmed: the `--confirm` ids of the open items; planted-marker: the paths. */
  ids?: string[];
  /** ambiguous-session: the sessions that wrote within `windowMinutes`, each with its client (`agent`). */
  sessions?: RecentSession[];
  /**
   * ambiguous-session: each session of `sessions` a /clear started (`by`) whose record names no session it
   * replaced, with the sessions of `sessions` no SessionStart record names (`maybe`), any of which may be
   * that one or may still run (`LiveSessions.unplaced`): why naming the session is the only way.
   */
  unplaced?: Array<{ by: string; maybe: string[] }>;
  /**
   * ambiguous-session: asked for the shared marker (`--shared`), which then names its signer with
   * `--session`; planted-marker, tracked-marker: asked for it, so naming a session does not help.
   */
  shared?: boolean;
  windowMinutes?: number;
  /** nothing-detected: what was looked for (relative paths and globs, per system). */
  lookedFor?: Array<{ system: SystemId; paths: string[] }>;
  /** nothing-detected: files at a system's path that were not read, and why (as `check` lists them). */
  notRead?: NotRead[];
  /** write-failed: the error's message (English); planted-marker: what stands at each path (English). */
  error?: string;
  /** write-failed: the error itself (a WriteRefused carries what the extension words in the user's language). */
  cause?: unknown;
}

export interface CheckpointOutcome {
  kind: CheckpointKind;
  /** The marker is written (`written` or `nothing-to-preserve`). */
  ok: boolean;
  /** Empty unless `refused`. */
  refusals: Refusal[];
  report: WorkspaceReport;
  /** Block checks that fail (also when `nothing-to-preserve` wrote over them). */
  blocking: Check[];
  /** Absolute path written, or null. */
  markerPath: string | null;
  /** `.claude/.checkpoint-ready[.<id>]` written, or null. */
  marker: string | null;
  sessionId: string | null;
  sessionSource: 'option' | 'transcript' | 'session-start' | null;
  /**
   * The session's client: `transcript`, whose transcript (Claude Code) or rollout (Codex CLI) it is;
   * `session-start`, whose SessionStart hook recorded it; `option`, the client of the live session or
   * the record of that id. Absent when not known.
   */
  sessionAgent?: 'claude' | 'codex';
  /**
   * The session whose manual ticks decided the manual items (`reportFor` was given and the session is
   * known: named, picked or found, the signer's for a shared marker; null: no session is known). Set on
   * a refusal too, so a caller can show the ticks that would let the checkpoint through.
   */
  ticksFor?: string | null;
  /** The sessions of this folder that wrote within the window, when they were looked at (no session named). */
  live?: RecentSession[];
  /** Wrote the shared `.claude/.checkpoint-ready`. */
  shared: boolean;
  /** The session that signed the shared marker (`--shared`), or null: it names none. */
  signedBy?: string | null;
  /** The signer's client, as `sessionAgent` says a session's; absent when not known. */
  signedByAgent?: 'claude' | 'codex';
  /**
   * Whether the PreCompact guard runs in this folder for the session's client (either client's when it
   * is not known: core `guardRuns`), so the marker lets /compact through; false: nothing stops /compact,
   * with or without it. Set once a marker is written.
   */
  guarded?: boolean;
  /** For the detected systems, one line each. */
  resumePrompt: string;
  /** Each checkpointed system's closing step (empty unless `written`). */
  closing: ClosingStep[];
  /** Systems switched off by their own configuration, with their seed's skip line (and its message id when the system declares one). */
  skipped: Array<{ system: SystemId; line: string; said?: Msg }>;
  /** `nothing-to-preserve`: what the marker means, as a message id. */
  said: Msg | null;
  /** What the CLI prints (English, or in the `language` asked for). The extension renders from the fields above. */
  lines: string[];
}

/** Former name. */
export type CheckpointResult = CheckpointOutcome;

function fallbackPrompt(s: SystemReport): string {
  return promptFor(s.id, s.home, null, s.unconfirmed.length);
}

/** The prompt to paste into a fresh session: each detected (and switched-on) system's own, one per line. */
export function resumePromptFor(report: WorkspaceReport): string {
  const prompts = report.systems
    .filter((s) => !s.skipped)
    .map((s) => (s.resumePrompt && s.resumePrompt.trim()) || fallbackPrompt(s));
  return [...new Set(prompts)].join('\n');
}

/**
 * Where the session id comes from: the option, the newest session of this folder of either client (a
 * Claude Code transcript or a Codex CLI rollout, as the status bar finds it: the guard of each client
 * reads the marker of its own session), the SessionStart record. Only for a folder where at most one
 * session wrote recently: with several, `checkpoint` asks which one instead (`ambiguous`).
 */
export async function resolveSessionId(
  root: string,
  opts: Pick<CheckpointOptions, 'sessionId' | 'claudeHome' | 'codexHome' | 'env'> = {},
): Promise<{
  sessionId: string | null;
  source: CheckpointOutcome['sessionSource'];
  agent?: 'claude' | 'codex';
}> {
  if (opts.sessionId !== undefined)
    return {
      sessionId: isSessionId(opts.sessionId) ? opts.sessionId : null,
      source: isSessionId(opts.sessionId) ? 'option' : null,
    };
  try {
    const refs = await findSessions(root, { claudeHome: opts.claudeHome, codexHome: opts.codexHome, env: opts.env });
    const t = refs.find((r) => isSessionId(r.sessionId));
    if (t && isSessionId(t.sessionId)) return { sessionId: t.sessionId, source: 'transcript', agent: t.agent };
  } catch {
    /* no transcript: try the record */
  }
  const rec = await readSessionRecord(root);
  // Only the hook's own record of a session that ran in this folder: one committed with the repository,
  // or from another folder, names a session the user may not run here.
  if (rec?.session_id && (await recordedHere(root, SESSION_RECORD_REL, rec, await rootForms(root))))
    return { sessionId: rec.session_id, source: 'session-start', agent: rec.agent ?? 'claude' };
  return { sessionId: null, source: null };
}

/**
 * The session a command means when none is named: the sessions that run now, as the status bar counts
 * them (a session /clear replaced in its agent process is left out, the one /clear started counted even
 * before it wrote); with several of them none is meant (`meant` null: the command asks which, or takes
 * none); else the one `resolveSessionId` finds, or, when that is the session /clear replaced, the live
 * session left (known from the hook's record when it has written no transcript yet).
 */
export async function sessionMeant(
  root: string,
  opts: Pick<CheckpointOptions, 'claudeHome' | 'codexHome' | 'env'> & { now: number; windowMinutes: number },
): Promise<{ running: LiveSessions; meant: Awaited<ReturnType<typeof resolveSessionId>> | null }> {
  const running = await liveSessions(root, opts);
  if (ambiguous(running.live)) return { running, meant: null };
  const r = await resolveSessionId(root, { claudeHome: opts.claudeHome, codexHome: opts.codexHome, env: opts.env });
  const instead = inPlaceOf(running, r.sessionId);
  const meant = instead
    ? {
        sessionId: instead.sessionId,
        source: running.started.includes(instead) ? ('session-start' as const) : ('transcript' as const),
        agent: instead.agent,
      }
    : r;
  return { running, meant };
}

/**
 * The refusal that asks which session a checkpoint is for, while several run and none is named (`shared`:
 * asked for the shared marker, which then names its signer).
 */
function askWhich(running: LiveSessions, windowMinutes: number, shared?: boolean): Omit<Refusal, 'said'> {
  return {
    code: 'ambiguous-session',
    checks: [],
    sessions: running.live,
    windowMinutes,
    shared,
    ...(running.unplaced.length ? { unplaced: running.unplaced } : {}),
  };
}

/**
 * Which session a checkpoint run now without `--session` is for, as `sessionMeant` decides, for the
 * commands that print one: its id (null: none is known, and it writes the shared marker), or, while
 * several run, the refusal it meets, which asks which (`asked`).
 */
export type SessionNamed = { sessionId: string | null } | { asked: Omit<Refusal, 'said'> };

/** `SessionNamed` from what `sessionMeant` found. */
export function sessionNamed(found: Awaited<ReturnType<typeof sessionMeant>>, windowMinutes: number): SessionNamed {
  return found.meant ? { sessionId: found.meant.sessionId } : { asked: askWhich(found.running, windowMinutes) };
}

/**
 * How `check` and `status` say to confirm the open manual items `ids`: the checkpoint command that confirms
 * them, run as `lang` names the program, with the `--root` given (`root`) and the session it is for
 * (`--session`), so that it runs as printed; while several sessions run and none is named, what a
 * checkpoint's refusal says then: the `--confirm`, then each session with the command that writes its
 * marker.
 */
export function confirmLines(
  named: SessionNamed,
  ids: readonly string[],
  lang: Language = ENGLISH,
  o: { root?: string; now?: number } = {},
): string[] {
  const next: NextCommand = { program: lang.program ?? PROGRAM, root: o.root, confirm: [...ids] };
  if (!('asked' in named))
    return [
      lang.msg(t('When they are true, confirm them with:')),
      ...nextLines({ ...next, session: named.sessionId ?? undefined }),
    ];
  return [
    lang.msg(t('When they are true, confirm them: {0} (the commands below give it).', `--confirm ${ids.join(',')}`)),
    ...refusalLines(refusal(named.asked), o.now, lang, next),
  ];
}

/** The manual item ids `--confirm` accepts: each bare, and `<system>:<id>`. */
export function knownConfirmIds(report: WorkspaceReport): Set<string> {
  const ids = new Set<string>(MANUAL_CHECKS.map((m) => m.id));
  for (const s of report.systems) for (const c of s.checks) if (c.severity === 'manual') ids.add(c.id);
  const out = new Set<string>(ids);
  for (const f of ALL_FACTS) for (const id of ids) out.add(`${f.id}:${id}`);
  return out;
}

/**
 * The manual items a checkpoint refuses on (open in a system that is not switched off), with the
 * `--confirm` ids that say they are true. The checkpoint's refusal and the guard's hint both use it.
 */
export function openManualItems(report: WorkspaceReport): { checks: Check[]; ids: string[] } {
  // In the order the systems ask them; the session's items once (each system holds them).
  const said = new Set<string>();
  const checks = report.systems
    .filter((s) => !s.skipped)
    .flatMap((s) => s.checks.filter((c) => c.status === 'manual-open'))
    .filter((c) => !isSessionItem(c) || (!said.has(c.id) && !!said.add(c.id)));
  return { checks, ids: [...new Set(checks.map((c) => c.id))] };
}

/** What was looked for, per system: its home file (the one list every command and the extension name). */
export function lookedFor(): Array<{ system: SystemId; paths: string[] }> {
  return ALL_FACTS.map((f) => ({ system: f.id, paths: [f.home] }));
}

/** Where the session id came from, in the CLI's words. */
function sourceText(source: CheckpointOutcome['sessionSource'], agent: CheckpointOutcome['sessionAgent']): string {
  if (source === 'option') return 'given with --session';
  if (source === 'session-start') return 'recorded by the SessionStart hook';
  if (source === 'transcript')
    return agent === 'codex'
      ? 'from the newest Codex CLI session of this folder'
      : 'from the newest Claude Code transcript of this folder';
  return '';
}

function ago(ms: number, now: number): Msg {
  const m = Math.max(0, Math.round((now - ms) / 60_000));
  return m < 1 ? t('just now') : t('{0} min ago', m);
}

/**
 * The text of a refusal (the CLI's; the extension renders its own from the fields): its sentences in
 * `lang`, with the checks and files not read it lists; the commands it names as they are in every language.
 */
export function refusalLines(
  r: Refusal,
  now = Date.now(),
  lang: Language = ENGLISH,
  next: NextCommand = { program: lang.program ?? PROGRAM, confirm: [] },
): string[] {
  const say = (m: Msg): string => lang.msg(m);
  switch (r.code) {
    case 'bad-session-id':
      return [say(t("'{0}' is not a session id (letters, digits, '.', '_', '-').", r.ids?.[0] ?? ''))];
    case 'unknown-confirm': {
      const ids = (r.ids ?? []).join(', ');
      const known = MANUAL_CHECKS.map((m) => m.id).join(', ');
      return [
        say(
          (r.ids?.length ?? 0) === 1
            ? t('--confirm: unknown item {0} (known: {1}, also as S1:<id>).', ids, known)
            : t('--confirm: unknown items {0} (known: {1}, also as S1:<id>).', ids, known),
        ),
      ];
    }
    case 'nothing-detected': {
      // Files present but not read: the same lines `check` prints (S1's memory stores without a handoff).
      if (r.notRead?.length)
        return [
          say(t('No state file read.')),
          ...notReadText(r, lang),
          startOne(lang),
          say(t('Nothing worth preserving? Run:')),
          ...nextLines(next, { first: '--nothing-to-preserve' }),
        ];
      const looked = (r.lookedFor ?? []).map((l) => `${l.system} ${l.paths.join(', ')}`).join(', ');
      return [
        say(t('No state files detected (looked for {0}): there is nothing to vouch for.', looked)),
        startOne(lang),
        say(t('Nothing worth preserving? Run:')),
        ...nextLines(next, { first: '--nothing-to-preserve' }),
      ];
    }
    case 'blocking-checks':
      return [
        say(r.checks.length === 1 ? t('1 blocking check failed:') : t('{0} blocking checks failed:', r.checks.length)),
        ...r.checks.map((c) => `${c.system} ${checkLine(c, lang).trimStart()}`),
      ];
    case 'manual-unconfirmed': {
      const ids = r.ids ?? [...new Set(r.checks.map((c) => c.id))];
      return [
        say(
          r.checks.length === 1
            ? t('1 manual item not confirmed (every one must be YES):')
            : t('{0} manual items not confirmed (every one must be YES):', r.checks.length),
        ),
        // A session's item is one for every system: named without one.
        ...r.checks.map((c) => `  ${isSessionItem(c) ? '' : `${c.system} `}${c.id}: ${lang.msg(saidMsg(c))}`),
        ...(next.sessionAsked
          ? [
              say(
                t('When they are true, confirm them: {0} (the commands below give it).', `--confirm ${ids.join(',')}`),
              ),
            ]
          : [say(t('When they are true, confirm them with:')), ...nextLines(next)]),
      ];
    }
    case 'ambiguous-session': {
      const n = r.sessions?.length ?? 0;
      const minutes = r.windowMinutes ?? sessionWindowMinutes();
      const name = r.shared ? '--shared --session ID' : '--session ID';
      const out = [
        say(
          minutes === 1
            ? t(
                '{0} agent sessions of this folder wrote within the last minute; which one is this checkpoint for? Name it with {1}:',
                n,
                name,
              )
            : t(
                '{0} agent sessions of this folder wrote within the last {1} minutes; which one is this checkpoint for? Name it with {2}:',
                n,
                minutes,
                name,
              ),
        ),
      ];
      // Each session, then the command that writes its checkpoint.
      for (const s of r.sessions ?? []) {
        const first = s.firstUserLine ? JSON.stringify(s.firstUserLine) : t('(no user message yet)');
        const client = clientName(s.agent);
        out.push(
          `  ${s.sessionId}  ${say(
            s.terminal
              ? t('{0}, last write {1}, terminal "{2}": {3}', client, ago(s.lastWrite, now), s.terminal, first)
              : t('{0}, last write {1}: {2}', client, ago(s.lastWrite, now), first),
          )}`,
          ...nextLines(next, { session: s.sessionId }),
        );
      }
      // A /clear whose record names no session it replaced: nothing tells whether a session without a record is that one.
      for (const u of r.unplaced ?? [])
        for (const id of u.maybe)
          out.push(
            say(
              t(
                'Session {0} has no SessionStart record here (it started before the hooks were installed, or its record was removed), so whether /clear replaced it with session {1} cannot be told. Name the session this checkpoint is for with {2}.',
                id,
                u.by,
                name,
              ),
            ),
          );
      return out;
    }
    case 'write-failed':
      return [say(t('The marker could not be written: {0}', r.error ?? 'unknown error'))];
    case 'planted-marker': {
      const rm = `rm -r ${(r.ids ?? []).join(' ')}`;
      return [
        say(
          r.shared
            ? t(
                'Not written: {0}; the PreCompact guard stops /compact for the session that path names, whatever the shared marker says. Remove it ({1}) and run it again.',
                r.error ?? '',
                rm,
              )
            : t(
                'Not written: no session id is known, so this would be the shared marker, but {0}; the PreCompact guard stops /compact for that session whatever the shared marker says. Remove it ({1}) and run it again, or name the session with --session ID.',
                r.error ?? '',
                rm,
              ),
        ),
      ];
    }
    case 'tracked-marker': {
      const untrack = `git rm -r --cached ${SHARED_MARKER_REL} && rm -rf ${SHARED_MARKER_REL}`;
      return [
        say(
          r.shared
            ? t(
                "Not written: git tracks the shared marker {0}: the PreCompact guard takes no shared marker that came with the repository. Stop tracking it and remove it ({1}) and run it again, or write this session's own marker instead: the same command without --shared, with --session ID.",
                SHARED_MARKER_REL,
                untrack,
              )
            : t(
                'Not written: no session id is known, so this would be the shared marker {0}, but git tracks that file: the PreCompact guard takes no shared marker that came with the repository. Name the session with --session ID, or stop tracking the file and remove it ({1}) and run it again.',
                SHARED_MARKER_REL,
                untrack,
              ),
        ),
      ];
    }
  }
}

/** A switched-off system's skip line, with its message id when its facts declare one. */
function skippedOf(system: SystemId, line: string): CheckpointOutcome['skipped'][number] {
  const said = factsOf(system).switchedOff;
  return said && said.text === line ? { system, line, said } : { system, line };
}

function emptyOutcome(report: WorkspaceReport, resumePrompt: string): CheckpointOutcome {
  return {
    kind: 'refused',
    ok: false,
    refusals: [],
    report,
    blocking: [],
    markerPath: null,
    marker: null,
    sessionId: null,
    sessionSource: null,
    shared: false,
    resumePrompt,
    closing: [],
    skipped: [],
    said: null,
    lines: [],
  };
}

/** A refusal with its sentence: the typed fields and the message id a UI translates. */
function refusal(r: Omit<Refusal, 'said'>): Refusal {
  return { ...r, said: refusalSaid(r) };
}

/** One refusal in one sentence (message id and arguments). */
export function refusalSaid(r: Omit<Refusal, 'said'>): Msg {
  switch (r.code) {
    case 'nothing-detected':
      return t('No agent state file detected: looked for {0}.', (r.lookedFor ?? []).flatMap((l) => l.paths).join(', '));
    case 'blocking-checks':
      return r.checks.length === 1
        ? t('1 blocking check failed: {0}', checksNamed(r.checks))
        : t('{0} blocking checks failed: {1}', r.checks.length, checksNamed(r.checks));
    case 'manual-unconfirmed':
      return r.checks.length === 1
        ? t('1 manual item not ticked: {0} Tick it in the checklist when it is true.', checksNamed(r.checks))
        : t(
            '{0} manual items not ticked: {1} Tick them in the checklist when they are true.',
            r.checks.length,
            checksNamed(r.checks),
          );
    case 'ambiguous-session':
      return r.windowMinutes === 1
        ? t(
            '{0} agent sessions of this folder wrote in the last minute; pick the one this checkpoint is for.',
            r.sessions?.length ?? 0,
          )
        : t(
            '{0} agent sessions of this folder wrote in the last {1} minutes; pick the one this checkpoint is for.',
            r.sessions?.length ?? 0,
            r.windowMinutes ?? 0,
          );
    case 'bad-session-id':
      return t('{0} is not a session id.', r.ids?.[0] ?? '');
    case 'unknown-confirm':
      return (r.ids ?? []).length === 1
        ? t('Unknown manual item: {0}.', (r.ids ?? []).join(', '))
        : t('Unknown manual items: {0}.', (r.ids ?? []).join(', '));
    case 'write-failed':
      return t('The marker could not be written: {0}', r.error ?? '');
    case 'planted-marker':
      return t(
        '{0} is no marker Session Ledger wrote (a link, a folder or a hard-linked file): the guard stops /compact for its session until it is removed.',
        (r.ids ?? []).join(', '),
      );
    case 'tracked-marker':
      return r.shared
        ? t(
            "Git tracks the shared marker {0}: the guard takes no shared marker that came with the repository. Stop tracking the file, or write this session's own marker instead (without --shared).",
            SHARED_MARKER_REL,
          )
        : t(
            'No session is known and git tracks the shared marker {0}: the guard takes no shared marker that came with the repository. Name the session, or stop tracking the file.',
            SHARED_MARKER_REL,
          );
  }
}

function refuse(
  res: CheckpointOutcome,
  now: number,
  lang: Language,
  opts: CheckpointOptions,
  ...given: Array<Omit<Refusal, 'said'>>
): CheckpointOutcome {
  const refusals = given.map(refusal);
  res.kind = 'refused';
  res.refusals.push(...refusals);
  res.lines.push('', lang.msg(t('Checkpoint not written:')));
  // The next command: the one that was run, with the open manual items confirmed too.
  const open = refusals.find((r) => r.code === 'manual-unconfirmed')?.ids ?? [];
  const next: NextCommand = {
    program: lang.program ?? PROGRAM,
    root: opts.rootOption,
    session: opts.sessionId,
    shared: opts.shared,
    confirm: [...new Set([...(opts.confirmed ?? []), ...open])],
    sessionAsked: refusals.some((r) => r.code === 'ambiguous-session'),
  };
  for (const r of refusals) for (const l of refusalLines(r, now, lang, next)) res.lines.push(l);
  return res;
}

export async function checkpoint(root: string, opts: CheckpointOptions = {}): Promise<CheckpointOutcome> {
  const abs = path.resolve(root);
  const now = opts.now ?? Date.now();
  const confirmed = [...(opts.confirmed ?? [])];
  let report = opts.report ?? (await evaluate(abs, { confirmed, now }));
  const res = emptyOutcome(report, resumePromptFor(report));
  const lines = res.lines;
  const lang = opts.language ?? ENGLISH;

  if (opts.sessionId !== undefined && !isSessionId(opts.sessionId))
    return refuse(res, now, lang, opts, { code: 'bad-session-id', checks: [], ids: [opts.sessionId] });
  const known = knownConfirmIds(report);
  const unknown = confirmed.filter((c) => !known.has(c));
  if (unknown.length) return refuse(res, now, lang, opts, { code: 'unknown-confirm', checks: [], ids: unknown });

  res.skipped = report.systems.filter((s) => s.skipped).map((s) => skippedOf(s.id, s.skipped as string));
  let active = report.systems.filter((s) => !s.skipped);
  // A system switched off says its seed's skip line and nothing else.
  for (const s of res.skipped) lines.push(s.said ? lang.msg(s.said) : s.line);
  if (active.length === 0 && res.skipped.length && !opts.nothingToPreserve) {
    res.kind = 'skipped';
    return res;
  }
  // The session: named, or the only one that wrote recently, else (nothing recent) the newest / the recorded one.
  // Two that wrote recently are ambiguous whatever their clients: one client's guard never reads the other's marker.
  let sessionId: string | null = null;
  let source: CheckpointOutcome['sessionSource'] = null;
  const windowMinutes = opts.sessionWindowMinutes ?? sessionWindowMinutes(opts.env ?? process.env);
  // --shared: the shared marker, signed by the session named, else the one found here as any checkpoint
  // finds it (several that wrote recently: refused, asking which), so a guard that knows another
  // session's id takes it for none, while one without an id takes it.
  let signer: string | null = null;
  /** The signer's client, when known. */
  let signerAgent: 'claude' | 'codex' | undefined;
  /** Several sessions wrote recently and none is named: the refusal that asks which. */
  let unnamed: Omit<Refusal, 'said'> | undefined;
  /** Sessions left out of the live ones: /clear replaced each (`id`) with the session `by`. */
  const replaced: Array<{ id: string; by: string }> = [];
  if (opts.sessionId !== undefined) {
    // The client of the session named, when the folder's live sessions or its record say it.
    const agent = await clientOfSession(abs, opts.sessionId, {
      claudeHome: opts.claudeHome,
      codexHome: opts.codexHome,
      env: opts.env,
      now,
      windowMinutes,
    });
    if (opts.shared) {
      signer = opts.sessionId;
      signerAgent = agent;
    } else {
      sessionId = opts.sessionId;
      source = 'option';
      if (agent) res.sessionAgent = agent;
    }
  } else {
    const { running, meant: r } = await sessionMeant(abs, {
      claudeHome: opts.claudeHome,
      codexHome: opts.codexHome,
      env: opts.env,
      now,
      windowMinutes,
    });
    const recent = running.live;
    replaced.push(...running.replaced);
    res.live = recent;
    if (!r) {
      // A shared nothing-to-preserve lets every session through whoever signs it: no session is asked for, and it names none.
      if (!(opts.shared && opts.nothingToPreserve)) unnamed = askWhich(running, windowMinutes, opts.shared);
    } else if (opts.shared) {
      signer = r.sessionId;
      signerAgent = r.agent;
    } else {
      sessionId = r.sessionId;
      source = r.source;
      if (r.agent) res.sessionAgent = r.agent;
    }
  }
  // The manual items are the ticks of the session the marker is for (the signer's, for a shared marker);
  // while the session is ambiguous, none is asked for.
  if (opts.reportFor && !unnamed) {
    report = opts.reportFor(sessionId ?? signer);
    res.report = report;
    res.ticksFor = sessionId ?? signer;
    active = report.systems.filter((s) => !s.skipped);
  }
  const headAt = lines.length;
  const heading = (s: (typeof active)[number]) => `${systemName(s.id)} (${oneLine(s.home)}) — ${s.label}`;
  for (const s of active) lines.push(heading(s));

  res.blocking = blockingChecks(report);
  const manual = openManualItems(report);
  const refusals: Array<Omit<Refusal, 'said'>> = [];
  if (!opts.nothingToPreserve) {
    if (active.length === 0)
      refusals.push({
        code: 'nothing-detected',
        checks: [],
        lookedFor: lookedFor(),
        ...(report.notRead?.length ? { notRead: report.notRead } : {}),
      });
    if (res.blocking.length) refusals.push({ code: 'blocking-checks', checks: res.blocking });
    if (manual.checks.length && !(opts.reportFor && unnamed))
      refusals.push({ code: 'manual-unconfirmed', checks: manual.checks, ids: manual.ids });
  }
  if (unnamed) refusals.push(unnamed);
  if (refusals.length) return refuse(res, now, lang, opts, ...refusals);
  // The shared marker speaks for a session only when nothing stands at the session's own path that no
  // checkpoint wrote (the guard's choice): with such a path here, writing it would say "safe" untruly.
  // The shared nothing-to-preserve is the exception: the guard takes it before any session's marker.
  // Nor does a shared marker git tracks: it may have come with the repository, so the guard takes none.
  if (sessionId === null && (await gitTracks(path.join(abs, SHARED_MARKER_REL))) === true)
    return refuse(res, now, lang, opts, { code: 'tracked-marker', checks: [], shared: opts.shared });
  if (sessionId === null && !opts.nothingToPreserve) {
    const planted = [];
    for (const rel of await listMarkers(abs)) {
      // Only a session's marker path, the one its guard reads (`markerRel`): no guard reads a name
      // that is no session id, and such a name (`x;rm -rf ~`) is no path a command may show.
      if (rel === SHARED_MARKER_REL || !isSessionId(rel.slice(SHARED_MARKER_REL.length + 1))) continue;
      const why = plantedAt(abs, rel, now);
      if (why) planted.push({ rel, why });
    }
    if (planted.length)
      return refuse(res, now, lang, opts, {
        code: 'planted-marker',
        checks: [],
        shared: opts.shared,
        ids: planted.map((x) => x.rel),
        error: planted.map((x) => `${x.rel} is ${x.why.text}, not a marker Session Ledger wrote`).join('; '),
      });
  }

  // Each system's warnings under its own heading.
  lines.splice(
    headAt,
    active.length,
    ...active.flatMap((s) => [
      heading(s),
      ...s.checks
        .filter((c) => c.status === 'warn' || (c.status === 'fail' && opts.nothingToPreserve))
        .map((c) => `  ${c.system} ${checkLine(c, lang).trimStart()}`),
    ]),
  );
  res.sessionId = sessionId;
  res.sessionSource = source;
  const rel = markerRel(sessionId);
  const file = path.join(abs, rel);
  const hashes = active.flatMap((s) => s.docs.filter((d) => d.hash).map((d) => ({ hash: d.hash, path: d.relPath })));
  // A system's state files that no document holds (S1's attestation sidecar): vouched for as they read now.
  for (const rel of new Set(active.flatMap((s) => s.more ?? []))) {
    const hash = hashes.some((h) => h.path === rel) ? null : await stateFileHash(abs, rel);
    if (hash) hashes.push({ hash, path: rel });
  }
  const content = formatMarker({
    sessionId: sessionId ?? signer,
    at: new Date(now).toISOString(),
    label: report.label,
    nothingToPreserve: opts.nothingToPreserve,
    hashes,
    // What the user confirmed for these files, so the session's ticks can follow the checkpoint
    // (`markerTicks`); nothing-to-preserve confirms nothing.
    confirmed: opts.nothingToPreserve ? [] : confirmedItems({ systems: active }),
  });
  try {
    // The marker's own way checked first, so a refusal names the marker rather than its lock beside it.
    refuseOwnFileLink(file, abs);
    // One marker write at a time: the one that waited compares with the marker as it then is.
    await withWriteLock(file, abs, async () => {
      const old = await readTextFile(file, 1024 * 1024);
      await writeAtomic(file, content, {
        root: abs,
        own: true,
        expectHash:
          old.ok && !old.truncated ? old.hash : old.ok ? undefined : old.kind === 'missing' ? null : undefined,
      });
    });
  } catch (err) {
    return refuse(res, now, lang, opts, {
      code: 'write-failed',
      checks: [],
      error: (err as Error)?.message ?? String(err),
      cause: err,
    });
  }
  res.ok = true;
  res.kind = opts.nothingToPreserve ? 'nothing-to-preserve' : 'written';
  res.markerPath = file;
  res.marker = rel;
  res.shared = sessionId === null;
  if (opts.shared) res.signedBy = signer;
  if (opts.shared && signer && signerAgent) res.signedByAgent = signerAgent;
  lines.push('');
  // The session by its client when known (a session found by its transcript says it in its source).
  const whose = res.sessionAgent && source !== 'transcript' ? `${clientName(res.sessionAgent)} session` : 'session';
  if (sessionId) {
    lines.push(`Marker written: ${rel} (${whose} ${sessionId}, ${sourceText(source, res.sessionAgent)}).`);
    for (const x of replaced)
      lines.push(
        `Session ${x.id} is not counted as running: /clear replaced it with session ${x.by} in the same agent process (recorded by the SessionStart hook). To checkpoint it all the same, name it with --session.`,
      );
    // An id given that no session of this folder is known by (a typo writes a marker no guard reads): said.
    if (source === 'option' && !res.sessionAgent)
      lines.push(
        `No session ${sessionId} is known here: none of that id wrote in this folder within the last ${windowMinutes} min, and the SessionStart hook recorded none. If the id is mistyped, no guard takes this marker: run checkpoint without --session to take this folder's session.`,
      );
  } else if (opts.shared)
    lines.push(
      opts.nothingToPreserve
        ? `Marker written: ${rel} — the shared marker (--shared): its nothing-to-preserve lets /compact through for every session of this folder.`
        : `Marker written: ${rel} — the shared marker (--shared), which the PreCompact guard reads when the client sends no session id; ${signer ? `signed by ${signerAgent ? `${clientName(signerAgent)} session` : 'session'} ${signer}${opts.sessionId ? '' : ', the one found here'}, so a guard that knows another session's id does not take it` : 'no session of this folder is known, so it names none'}.`,
    );
  else {
    lines.push(
      `Marker written: ${rel} — the shared marker, because no session id is known (no --session, no Claude Code or Codex CLI session of this folder, nothing recorded by the SessionStart hook). Where several sessions share this folder, pass --session ID.`,
    );
  }
  // What the marker does rests on the guard: where it does not run, nothing stops /compact either way.
  res.guarded = await guardRuns(abs, {
    agent: res.sessionAgent,
    env: opts.env,
    claudeHome: opts.claudeHome,
    codexHome: opts.codexHome,
  });
  if (opts.nothingToPreserve) {
    if (res.guarded) {
      lines.push(
        'Marked nothing-to-preserve (your word that nothing here is worth keeping): the PreCompact guard lets /compact through.',
      );
      res.said = t('Marker written (nothing to preserve): the PreCompact guard lets /compact through.');
    } else {
      lines.push(
        'Marked nothing-to-preserve (your word that nothing here is worth keeping). Nothing stops /compact here, marker or not: it is not guarded. With the guard hook, the marker lets it through.',
      );
      res.said = t(
        'Marker written (nothing to preserve). Nothing stops /compact here, marker or not: it is not guarded. With the guard hook, the marker lets it through.',
      );
    }
    return res;
  }
  // After /clear the SessionStart hook, where it runs for the session's client, hands the agent the resume block.
  const clears = active.some((s) => factsOf(s.id).freshContext.command === '/clear');
  const handedOver =
    clears &&
    (await guardRuns(abs, {
      agent: res.sessionAgent,
      env: opts.env,
      claudeHome: opts.claudeHome,
      codexHome: opts.codexHome,
      event: 'SessionStart',
    }));
  res.closing = closingSteps(active, handedOver);
  const several = res.closing.length > 1;
  // Every checkpoint prints the resume prompt: those the systems' own closing words do not hold stand
  // before the closing blocks, which stay whole (each seed's go-signal is its block's last line).
  const unsaid = res.closing.filter(
    (c) => c.resumePrompt && !c.lines.some((l) => l.includes(c.resumePrompt.split('\n')[0])),
  );
  if (unsaid.length) {
    lines.push('', 'Resume prompt for the fresh context:');
    for (const c of unsaid)
      for (const l of c.resumePrompt.split('\n')) lines.push(several ? `    ${c.system}: ${l}` : `    ${l}`);
  }
  // Each system's closing under its id (the seed's shape, its step in the words every surface uses;
  // indented when there are several, so a lone system's prompt copies as it is), then, when the
  // systems end differently, the one sentence that says which to type.
  for (const c of res.closing) {
    lines.push('', `${c.system}:`);
    for (const l of c.lines) lines.push(several ? `  ${l}` : l);
  }
  const choice = closingChoice(res.closing, res.guarded);
  if (choice) lines.push('', lang.msg(choice));
  return res;
}
