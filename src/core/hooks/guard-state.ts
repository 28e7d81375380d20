/**
 * Whether /compact is guarded in a folder, and what the guard would do with a manual /compact of a
 * session now: the PreCompact guard installed for the session's own client (Claude Code's settings,
 * Codex CLI's hook file), a setting of Claude Code's own that keeps it from running it (`claudeStops`),
 * and the guard's own decision on that /compact (`preCompactGuard`, nothing logged). One decision for
 * the status item and for `status` and `check`. Read-only: it writes no file and runs no process.
 */
import type { LiveSessions } from '../checkpoint/live';
import { said, t, type Language, type Msg } from '../model/messages';
import type { WorkspaceReport } from '../model/model';
import { hooksStoppedSaid, type ClaudeStop } from './client-settings';
import { maxAgeMinutes, preCompactGuard, type GuardDecision } from './guard';
import { guardSetup, type GuardSetup } from './guard-runs';
import type { HookClient } from './installed';

/** The session a manual /compact would be of: its client, its id (null: none known) and its transcript. */
export interface GuardSession {
  agent: HookClient;
  sessionId: string | null;
  /** The session's transcript (Codex CLI: its rollout), absolute; null when not known. */
  transcript: string | null;
}

export interface GuardStateOptions {
  env?: NodeJS.ProcessEnv;
  /** Claude Code's config folder (default: `$CLAUDE_CONFIG_DIR` or `~/.claude` of `env`). */
  claudeHome?: string;
  /** Codex CLI's home (default: `$CODEX_HOME` or `~/.codex` of `env`). */
  codexHome?: string;
  /** A report of the folder the caller has already: the guard then does not evaluate again. */
  report?: WorkspaceReport;
  /** Evaluate without git (Restricted Mode runs no process). */
  noGit?: boolean;
  /** Read the session's transcript for the turns after the marker an allow stands on (core `turnAfter`). */
  turns?: boolean;
  now?: number;
}

/** What is true of /compact for one session: the guard as its client has it here (`GuardSetup`: without it, nothing stops /compact), and what it would do. */
export interface GuardState extends GuardSetup {
  agent: HookClient;
  /** What the guard would decide on a manual /compact of the session now. */
  decision: GuardDecision;
  /** The marker max age it applied (minutes). */
  maxAgeMin: number;
}

/** The guard's state for the session `s` in `root`. Never throws (the guard allows on its own errors). */
export async function guardState(root: string, s: GuardSession, o: GuardStateOptions = {}): Promise<GuardState> {
  const env = o.env ?? process.env;
  const decision = await manualDecision(root, s, o);
  const setup = await guardSetup(root, s.agent, { env, claudeHome: o.claudeHome, codexHome: o.codexHome });
  return {
    agent: s.agent,
    ...setup,
    decision,
    maxAgeMin: maxAgeMinutes(env),
  };
}

/** What the guard would decide on a manual /compact of the session `s` in `root` now (nothing logged). */
function manualDecision(root: string, s: GuardSession, o: GuardStateOptions): Promise<GuardDecision> {
  return preCompactGuard(manualCompactInput(s, root), {
    root,
    env: o.env ?? process.env,
    now: o.now,
    log: false,
    report: o.report,
    noGit: o.noGit,
    agent: s.agent,
    turns: o.turns,
  });
}

/**
 * The PreCompact hook's input for a manual /compact of a session as its client sends it (Codex CLI
 * sends its thread id as the session id and its rollout file as the transcript; a session not known
 * sends neither).
 */
export function manualCompactInput(s: { sessionId: string | null; transcript?: string | null }, root: string): string {
  return JSON.stringify({
    ...(s.sessionId ? { session_id: s.sessionId } : {}),
    ...(s.transcript ? { transcript_path: s.transcript } : {}),
    cwd: root,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
  });
}

/**
 * What is true of /compact for the session a command run now means (core checkpoint `sessionMeant`: the
 * one `checkpoint` without `--session` would take): its guard state; while several sessions run and none
 * is meant, how many (`several`) and the guard's verdict on each (`sessions`), as it decides each session
 * on its own marker.
 */
export interface MeantGuard {
  /** The client of the session meant; with none known, the one whose guard is installed (Claude Code's first). */
  agent: HookClient;
  sessionId: string | null;
  /** The guard is installed for the client of the session meant (while several run: for each of theirs). */
  installed: boolean;
  /** For each client: its guard is installed here. */
  installedFor: Record<HookClient, boolean>;
  stopped: ClaudeStop | null;
  /** Several sessions run in the folder and none is meant: how many; else null. */
  several: number | null;
  /** The guard's decision on a manual /compact of the session meant; null while several run. */
  decision: GuardDecision | null;
  /**
   * While several run, none is meant and the guard runs for their clients (installed, not stopped): each
   * live session (the ones `checkpoint`'s refusal lists, in its order) with the guard's decision on a
   * manual /compact of it; else null.
   */
  sessions: SessionGuard[] | null;
  maxAgeMin: number;
}

/** One live session and what the guard would decide on a manual /compact of it now. */
export interface SessionGuard {
  agent: HookClient;
  sessionId: string;
  decision: GuardDecision;
}

/** The guard's state for the session meant, from what `sessionMeant` found (`found`). */
export async function meantGuard(
  root: string,
  found: {
    running: Pick<LiveSessions, 'live'>;
    meant: { sessionId: string | null; agent?: HookClient } | null;
  },
  o: GuardStateOptions = {},
): Promise<MeantGuard> {
  const env = o.env ?? process.env;
  const homes = { env, claudeHome: o.claudeHome, codexHome: o.codexHome };
  // Each client's guard, read once: the session meant takes its own client's.
  const setups: Record<HookClient, GuardSetup> = {
    claude: await guardSetup(root, 'claude', homes),
    codex: await guardSetup(root, 'codex', homes),
  };
  const installedFor: Record<HookClient, boolean> = {
    claude: setups.claude.installed,
    codex: setups.codex.installed,
  };
  const maxAgeMin = maxAgeMinutes(env);
  if (!found.meant) {
    const clients = [...new Set(found.running.live.map((l) => l.agent))];
    const installed = clients.every((c) => installedFor[c]);
    const stopped = clients.includes('claude') ? setups.claude.stopped : null;
    // Each session's verdict, one at a time: as many guard decisions as the session choice lists sessions.
    let sessions: SessionGuard[] | null = null;
    if (installed && !stopped) {
      sessions = [];
      for (const l of found.running.live) {
        const s = { agent: l.agent, sessionId: l.sessionId, transcript: l.transcriptPath || null };
        sessions.push({ agent: l.agent, sessionId: l.sessionId, decision: await manualDecision(root, s, o) });
      }
    }
    return {
      agent: clients.includes('claude') ? 'claude' : 'codex',
      sessionId: null,
      installed,
      installedFor,
      stopped,
      several: found.running.live.length,
      decision: null,
      sessions,
      maxAgeMin,
    };
  }
  const sessionId = found.meant.sessionId;
  const agent = found.meant.agent ?? (installedFor.claude || !installedFor.codex ? 'claude' : 'codex');
  const live = found.running.live.find((l) => l.sessionId === sessionId);
  const decision = await manualDecision(root, { agent, sessionId, transcript: live?.transcriptPath ?? null }, o);
  return {
    agent,
    sessionId,
    installed: setups[agent].installed,
    installedFor,
    stopped: setups[agent].stopped,
    several: null,
    decision,
    sessions: null,
    maxAgeMin,
  };
}

/** Why the guard would let a manual /compact through or stop it: its rule, as one phrase (a rule not known here: its name). */
export function guardRuleSaid(rule: string, maxAgeMin: number): Msg | string {
  const rules: Record<string, () => Msg> = {
    fresh: () => t('a fresh checkpoint marker'),
    idle: () => t('no work since the checkpoint'),
    'opt-out': () => t('marked nothing-to-preserve'),
    'no-marker': () => t('no checkpoint in this session'),
    'foreign-marker': () => t('the marker belongs to another session'),
    'marker-error': () => t('the marker cannot be read (the guard allows on its own errors)'),
    error: () => t('the guard met an internal error (it allows on its own errors; its log says why)'),
    skeleton: () => t('the state file is an empty skeleton'),
    gone: () =>
      t('a state file the checkpoint vouched for is gone, empty, no longer a state file or a link that leads nowhere'),
    stale: () => t('work since a checkpoint older than {0} min', maxAgeMin),
    unvouched: () => t('a state file was not part of the last checkpoint'),
    unreadable: () => t('a state file the checkpoint vouched for cannot be read now'),
    broken: () => t('a state file changed since the checkpoint fails a blocking check'),
  };
  return Object.prototype.hasOwnProperty.call(rules, rule) ? rules[rule]() : rule;
}

/** State files as a sentence names them, each as `name` shows it: the first three, then how many more. */
export function filesNamed(files: readonly string[], name: (s: string) => string = (s) => s): Msg | string {
  const shown = files.slice(0, 3).map(name).join(', ');
  return files.length > 3 ? t('{0} and {1} more', shown, files.length - 3) : shown;
}

/**
 * The guard's verdict on a manual /compact, as one sentence: it would pass or be stopped, and why. An
 * allow on a checkpoint's marker although state files changed since (`changed`: the guard ran their
 * blocking checks, and they pass) says so, and that the checkpoint does not cover them: the marker still
 * lets /compact through, and a checkpoint again is what vouches for the newest work. `name` shows a file.
 */
export function guardVerdictSaid(
  d: { allow: boolean; rule: string; changed?: readonly string[] },
  maxAgeMin: number,
  name?: (s: string) => string,
): Msg {
  const why = guardRuleSaid(d.rule, maxAgeMin);
  if (!d.allow) return t('/compact would be stopped by the guard: {0}.', why);
  const changed = d.changed ?? [];
  if (!changed.length) return t('/compact would pass the guard: {0}.', why);
  return changed.length === 1
    ? t(
        '/compact would pass the guard: {0}; {1} changed since, and its blocking checks still pass. The checkpoint does not cover that change: checkpoint again to vouch for the newest work.',
        why,
        filesNamed(changed, name),
      )
    : t(
        '/compact would pass the guard: {0}; {1} changed since, and their blocking checks still pass. The checkpoint does not cover those changes: checkpoint again to vouch for the newest work.',
        why,
        filesNamed(changed, name),
      );
}

/**
 * What `status` and `check` say of /compact for the session meant, one sentence: not guarded (the guard
 * not installed for its client, the command that installs it run as `program` names the tool, or a
 * setting of Claude Code's that stops it), several sessions running (each one's verdict follows it:
 * `meantGuardLines`), else the guard's verdict.
 */
export function meantGuardSaid(g: MeantGuard, program: string): Msg {
  if (!g.installed)
    return t(
      '/compact is not guarded: the guard hook is not installed in this folder (run {0}).',
      `${program} hooks install${g.agent === 'codex' && !g.several ? ' --codex' : ''}`,
    );
  if (g.stopped) return hooksStoppedSaid(g.stopped);
  if (!g.decision)
    return t(
      '/compact is guarded: {0} sessions run in this folder now, and the guard decides for each by its own checkpoint:',
      g.several ?? 0,
    );
  return guardVerdictSaid(g.decision, g.maxAgeMin);
}

/**
 * The lines `status` and `check` end with: `meantGuardSaid`, then, while several sessions run, one line
 * for each, its session id (as `checkpoint`'s refusal names it) and the guard's verdict on it.
 */
export function meantGuardLines(g: MeantGuard, lang: Language, program: string): string[] {
  return [
    lang.msg(meantGuardSaid(g, program)),
    ...(g.sessions ?? []).map((s) => `  ${s.sessionId}  ${lang.msg(guardVerdictSaid(s.decision, g.maxAgeMin))}`),
  ];
}

/** `status --json`'s and `check --json`'s `guard`: the facts of `meantGuard` and its sentence (English, with its id and arguments). */
export function jsonGuard(g: MeantGuard, program: string) {
  return {
    agent: g.agent,
    sessionId: g.sessionId,
    installed: g.installed,
    installedFor: { ...g.installedFor },
    stopped: g.stopped ? { ...g.stopped } : null,
    several: g.several,
    allow: g.decision ? g.decision.allow : null,
    rule: g.decision ? g.decision.rule : null,
    marker: g.decision ? g.decision.marker : null,
    ...said(meantGuardSaid(g, program)),
    // While several run: each one's verdict (its own sentence, English), else null.
    sessions: g.sessions
      ? g.sessions.map((s) => ({
          agent: s.agent,
          sessionId: s.sessionId,
          allow: s.decision.allow,
          rule: s.decision.rule,
          marker: s.decision.marker,
          ...said(guardVerdictSaid(s.decision, g.maxAgeMin)),
        }))
      : null,
  };
}
