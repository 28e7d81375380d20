/**
 * The PreCompact guard (S2's guard, for every system). It decides from Claude Code's hook JSON
 * whether a `/compact` may go ahead:
 *
 * 1. malformed stdin, a payload of another event, an internal error, or a marker that exists but
 *    cannot be read (permission, I/O error: not "missing") → allow (never trap the user), logged;
 *    input over the reader's limit (8 MB, cut) → block: no automatic compaction sends that much;
 * 2. `trigger` `auto` → allow (only manual compactions are guarded);
 * 3. `nothing-to-preserve` in the shared marker or in this session's marker → allow;
 * 4. no usable marker → block (a shared marker signed by another valid session id is not used, nor
 *    one git tracks or written before the session began); `.claude` a symbolic link, or at the
 *    marker something no checkpoint wrote (a link, a folder, a hard-linked file, a file dated in the
 *    future) → block, saying what stands there (`chooseMarker` decides, as for every surface);
 * 5. a state file that is an empty skeleton → block (`skeleton`); one the marker vouched for that is gone,
 *    empty or a link that leads nowhere since → block (`gone`);
 * 6. idle: no state file modified more than 30 s after the marker → allow, whatever the marker's age;
 * 7. state changed since the checkpoint (a home file written more than 30 s after the marker, a
 *    file the marker vouched for whose bytes differ, a state file it does not vouch for, unless it
 *    vouches for none: one written by hand) that now fails a blocking check
 *    → block, before the idle rule (every rule of those systems runs then, or the caller's report
 *    speaks); so does a home file the marker vouched for that cannot be read now, whatever its time;
 * 8. else allow only when the marker is at most `SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN` minutes old (480).
 *
 * Block = exit code 2 with the reason on stderr: what is true on its first line, then what to do,
 * in numbered steps, in the language given (`GuardOptions.lang`: the hook's locale); the commands in
 * it, paths, ids and the hook log's line stay as they are in every language.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { openManualItems } from '../checkpoint/checkpoint';
import {
  chooseMarker,
  CHECKPOINT_TURN_MS,
  guardCheckpointed,
  IDLE_GRACE_MS,
  maxAgeMinutes,
  optedOut,
  stateFileHash,
  type TurnAfterMarker,
} from '../checkpoint/freshness';
import { transcriptBegan } from '../context/files';
import { firstTurnBetween } from '../context/turns';
import { closingChoice } from '../report/closing';
import { evaluateSystems } from '../report/evaluate';
import { HOOK_SYSTEMS } from '../systems/hooks';
import { ALL_FACTS, FACTS } from '../systems/facts';
import { DEFAULT_MAX_BYTES, lstatOrNullSync, readStart, realpathOrNullSync, sha256 } from '../files/fsread';
import { insideRel } from '../files/atomic';
import { appendHookLog, hookRun, str, type HookPayload, type HookRunOptions } from './io';
import { CODEX_HOOK_SCRIPT_REL } from './files';
import { isSessionId, markerRel, SHARED_MARKER_REL, type MarkerFile } from '../checkpoint/marker';
import { isBlocking, type Check, type SystemId, type SystemReport, type WorkspaceReport } from '../model/model';
import { SYSTEMS } from '../systems/index';
import { ENGLISH, oneLine, saidMsg, t, type Language, type Msg } from '../model/messages';
import { localTime } from '../model/time';
import { findingChecks, manualChecks } from '../rules/common';
import { anywhereWord, commandLines, shellQuote, shellWord } from '../files/shell';

export { DEFAULT_MAX_AGE_MIN, IDLE_GRACE_MS, maxAgeMinutes } from '../checkpoint/freshness';
export const INSTALLED_SCRIPT_REL = '.claude/hooks/session-ledger.cjs';

export type GuardRule =
  | 'malformed'
  | 'too-large'
  | 'not-precompact'
  | 'error'
  | 'marker-error'
  | 'auto'
  | 'opt-out'
  | 'no-marker'
  | 'foreign-marker'
  | 'skeleton'
  | 'gone'
  | 'idle'
  | 'fresh'
  | 'stale'
  | 'unvouched'
  | 'unreadable'
  | 'broken';

export interface GuardDecision {
  allow: boolean;
  /** 0 allows, 2 blocks (Claude Code shows stderr to the user; Codex reads the block as JSON, see `hook pre-compact --codex`). */
  exitCode: 0 | 2;
  rule: GuardRule;
  /** What stderr says when blocked (what is true, then the numbered steps); '' when allowed. */
  reason: string;
  /** The line written to the hook log. */
  log: string;
  root: string;
  sessionId: string | null;
  /** The marker that was used (relative path), or null. */
  marker: string | null;
  /** When the marker a checkpoint's allow (fresh, idle) stands on was written (ms). */
  markerMtime?: number;
  /**
   * With `GuardOptions.turns`, on a checkpoint's allow: what the session's transcript says of the turns
   * after that marker (absent when it cannot tell), so a figure of a turn after the checkpoint is told
   * from the checkpoint's own (`guardCheckpointed`).
   */
  turnAfter?: TurnAfterMarker;
  /** Allowed although a state file (one changed since the checkpoint, or a system's whose files could not be read) was not checked: why. */
  unchecked?: string;
  /**
   * Allowed on a checkpoint's marker (fresh, idle) that does not vouch for these state files as they are
   * now (`notCovered`): the checkpoint does not cover them, so no surface says it is done.
   */
  changed?: string[];
}

export interface GuardOptions extends HookRunOptions {
  /** A report of the root the caller already has (the extension's store): the guard then does not evaluate again. */
  report?: WorkspaceReport;
  /** Evaluate without git (Restricted Mode spawns no process); the guard's own evaluation never runs git anyway. */
  noGit?: boolean;
  /** The client that runs the hook (its name in the words; default Claude Code). */
  agent?: 'claude' | 'codex';
  /** The hook's input was longer than the reader takes: what was read is only its first part. */
  inputTooLarge?: boolean;
  /** The language of the block's words (the hook's locale); English when not given. The log line is English. */
  lang?: Language;
  /**
   * Read the session's transcript for the turns after the marker an allow stands on (`turnAfter`): asked
   * by the surfaces that say "checkpoint done", never by the hook itself, whose decision needs none of it.
   */
  turns?: boolean;
}

/**
 * The longest program a block's command line shows (`commandLines`: `   ` before it, ` \` after): such a line
 * fits the 75 columns of an 80-column client screen behind its indent, so the client does not break it.
 */
const PROGRAM_MAX = 70;

/**
 * How the user (or the agent) runs the CLI in this workspace, as the hook's words name it: a command that
 * runs as printed from any folder, the workspace's subfolders too (a shell there cannot find a script by
 * its path in the workspace). From a hook: the script the hook's own command ran (`hook.script`), which is
 * there and runs as written, by its absolute path, `~/…` inside the home folder (`node
 * ~/proj/.claude/hooks/session-ledger.cjs`, `node /opt/session-ledger/dist/cli.js`): `session-ledger` is
 * a command only after a global install. The installed script whose path is too long for a block's line
 * (PROGRAM_MAX) is run from its workspace's folder instead (`cd ~/work/a-long-name && node
 * .claude/hooks/session-ledger.cjs`; a block shows the `cd` on a line of its own). Without a script (the
 * extension's preview, a test): the installed hook script when there is one (Claude Code's first, then
 * Codex's), else `session-ledger`. A path that holds a line break has no line a block can show: the
 * installed script is then named by its path in the workspace, which runs from the workspace folder,
 * where the hook runs.
 */
export function cliCommand(
  root: string,
  hook: { script?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const home = (hook.env ?? process.env).HOME;
  const named = (abs: string, rel: string | undefined): string => {
    if (rel && oneLine(abs) !== abs) return `node ${rel}`;
    const direct = `node ${anywhereWord(abs, home)}`;
    return rel && direct.length > PROGRAM_MAX ? `cd ${anywhereWord(path.resolve(root), home)} && node ${rel}` : direct;
  };
  const scripts = [INSTALLED_SCRIPT_REL, CODEX_HOOK_SCRIPT_REL];
  if (hook.script) {
    const abs = path.resolve(hook.cwd ?? root, hook.script);
    return named(
      abs,
      scripts.find((r) => path.join(path.resolve(root), r) === abs),
    );
  }
  const script = scripts.find((rel) => existsSync(path.join(root, rel)));
  return script ? named(path.join(path.resolve(root), script), script) : 'session-ledger';
}

/** The state files the guard watches: the home document of every detected system that exists. */
function homeDocs(report: WorkspaceReport | null): Array<{ rel: string; mtime: number }> {
  const out: Array<{ rel: string; mtime: number }> = [];
  for (const s of report?.systems ?? []) {
    if (s.skipped) continue;
    const d = s.docs.find((x) => x.relPath === s.home);
    if (d && d.mtime > 0) out.push({ rel: d.relPath, mtime: d.mtime });
  }
  return out;
}

/**
 * The steps to a checkpoint, one per line, for the block the user meets first: each state file with
 * what brings it up to date, the manual items `--confirm` vouches for, the command, the closing step.
 */
function checkpointSteps(
  cli: string,
  sid: string | null,
  report: WorkspaceReport | null,
  lang: Language,
  agent: GuardOptions['agent'],
): string[] {
  return stepsTo(cli, sid, report, [bringUpToDate(cli, report, lang, agent)], lang);
}

/**
 * The step that has the agent bring each state file up to date, with its system's own trigger (a
 * system switched off has none). While no system is switched on, a checkpoint writes no marker: the
 * step switches S0 on, or starts a system when none is here.
 */
function bringUpToDate(
  cli: string,
  report: WorkspaceReport | null,
  lang: Language,
  agent: GuardOptions['agent'],
): string[] {
  const systems = (report?.systems ?? []).filter((s) => !s.skipped);
  if (systems.length)
    return [
      lang.msg(t('Have your agent bring each state file up to date:')),
      ...systems.map((s) => `   - ${oneLine(s.home)}: ${triggerFor(s.id, s.home, agent, lang)}`),
    ];
  if (!report) return [lang.msg(t('Have your agent bring your state file up to date.'))];
  const off = switchable(report);
  if (!off)
    return [
      lang.msg(
        t(
          "No system's state file is here, so a checkpoint writes no marker. To keep state across /compact, start one: {0} init lists them.",
          cli,
        ),
      ),
    ];
  // The system's own words for being switched off, when that is what its report says.
  const said = FACTS[off.id].switchedOff;
  const skipped = said && said.text === off.skipped ? said : (off.skipped ?? '');
  return [
    lang.msg(
      t(
        'No system is switched on here ({0}: {1}), so a checkpoint writes no marker. To keep {2}, switch {0} on: {3} {4}',
        off.id,
        skipped,
        oneLine(off.home),
        cli,
        FACTS[off.id].switchOn ?? '',
      ),
    ),
    `   ${lang.msg(t('Then have your agent bring it up to date: {0}.', FACTS[off.id].checkpointTrigger))}`,
  ];
}

/**
 * What has the agent bring a system's state file up to date: the system's own trigger. One that is a
 * slash command is a command of Claude Code's; Codex has none of them (it answers "Unrecognized
 * command"), so to Codex it is a request in words.
 */
export function agentTrigger(id: SystemId, home: string, agent: GuardOptions['agent']): string | Msg {
  const run = FACTS[id].checkpointTrigger;
  if (agent !== 'codex' || !run.startsWith('/')) return run;
  return t('Bring {0} up to date for a checkpoint (Codex has no {1} command)', oneLine(home), run);
}

function triggerFor(id: SystemId, home: string, agent: GuardOptions['agent'], lang: Language): string {
  const run = agentTrigger(id, home, agent);
  return typeof run === 'string' ? run : lang.msg(run);
}

/** Some detected system is switched on (S0 without `session.ledger: true` is not): `checkpoint` writes a marker only then. */
function anyOn(report: WorkspaceReport | null): boolean {
  return (report?.systems ?? []).some((s) => !s.skipped);
}

/** While no system is switched on, the system switched off that the steps switch on, if any. */
function switchable(report: WorkspaceReport | null): SystemReport | undefined {
  if (!report || anyOn(report)) return undefined;
  return report.systems.find((s) => s.skipped && FACTS[s.id].switchOn);
}

/** A system's switch: its config file (S0's .agents.yml), which holds no state. */
const switchesOf = (id: SystemId): string[] =>
  FACTS[id].companions.filter((c) => c.what === 'config').map((c) => c.path);

/**
 * A block's steps, one per line and numbered: `first` (what to do about what the block found, each a
 * step's lines), then the manual items `--confirm` vouches for (the system's the steps switch on, when
 * no system is on), the checkpoint command, the closing step (`closingStepAfter`).
 */
function stepsTo(
  cli: string,
  sid: string | null,
  report: WorkspaceReport | null,
  first: string[][],
  lang: Language,
): string[] {
  const on = switchable(report);
  // The system the steps switch on asks for every manual item then (a switched-off one may hold no checks yet).
  const items = on ? manualChecks(on.id, new Set()) : report ? openManualItems(report).checks : [];
  const open = [...new Map(items.map((c) => [c.id, c])).entries()];
  const ids = open.map(([id]) => id);
  const steps: string[][] = [...first];
  if (open.length)
    steps.push([
      lang.msg(t('Make sure these are true (--confirm says so):')),
      ...open.map(([id, c]) => `   - ${id}: ${sentence(lang.msg(saidMsg(c)))}`),
    ]);
  // The command that succeeds once the manual items are true: `--confirm` names each one.
  steps.push(
    [
      lang.msg(t('Run:')),
      ...commandLines(cli, [`checkpoint ${sessionOption(sid)}`, ...(ids.length ? [`--confirm ${ids.join(',')}`] : [])]),
      `   ${lang.msg(t('It checks the state, writes the marker and prints the resume prompt.'))}`,
    ],
    closingStepAfter(report, lang),
  );
  return steps.flatMap(([first, ...rest], i) => [`${i + 1}. ${first}`, ...rest]);
}

/**
 * The block's last step: what to type once the checkpoint is written, in the words of the checkpoint's
 * closing report. The guard runs only on a manual /compact, so the user typed /compact; but a system
 * whose closing step is /clear (S0, S3) starts afresh with it: the step says /clear is theirs and that
 * /compact passes too once the checkpoint is written. Systems that end differently get the checkpoint's
 * own sentence for the choice (`closingChoice`); systems that all end with /compact, and a block that
 * knows no system, say to run /compact again. The systems are those switched on, or the one the steps
 * switch on.
 */
function closingStepAfter(report: WorkspaceReport | null, lang: Language): string[] {
  const on = (report?.systems ?? []).filter((s) => !s.skipped);
  const off = switchable(report);
  const steps = (on.length ? on : off ? [off] : []).map((s) => ({
    system: s.id,
    step: FACTS[s.id].freshContext.command,
  }));
  const choice = closingChoice(steps);
  if (choice) return [lang.msg(choice)];
  const clear = steps.filter((s) => s.step === '/clear').map((s) => s.system);
  if (clear.length)
    return [
      lang.msg(
        t(
          'Type /clear, the closing step of {0}: it starts afresh from the state files, with the resume prompt. /compact passes too once the checkpoint is written.',
          clear.join(', '),
        ),
      ),
    ];
  return [lang.msg(t('Run /compact again.'))];
}

/** A check's message as a part of a line: without its closing full stop (a Japanese one too). */
const sentence = (said: string): string => said.replace(/[.\u3002]$/, '');

/** The option that names the marker a checkpoint writes: this session's, or the shared one without a session id. */
const sessionOption = (sid: string | null): string => (sid ? `--session ${sid}` : '--shared');

/**
 * The way out for a session with nothing worth preserving: the command, and the lines to write the marker
 * at `markerAt` (relative to the workspace `root`) by hand. Without a session id the command writes the
 * shared marker (`--shared`), the one this guard reads then. The hand-written lines go to the workspace
 * folder first (`cd`, its path shell-quoted when it needs it), so they work from any folder (the agent or
 * the user may be in a subfolder), and then name the marker by its path in the workspace: each line stays
 * short enough for a client's screen at 80 columns, as the commands do (`commandLines`). A workspace path
 * holding a line break is not shown (its shown form is another path), so the lines say to run them from
 * the workspace folder then.
 */
function optOutLines(cli: string, sid: string | null, markerAt: string, root: string, lang: Language): string[] {
  const here = oneLine(root) === root;
  const write = ['echo nothing-to-preserve >', shellWord(markerAt)];
  return [
    lang.msg(t('Nothing worth preserving? Run:')),
    ...commandLines(cli, ['checkpoint --nothing-to-preserve', sessionOption(sid)]),
    ...(here
      ? [lang.msg(t('Or write the marker by hand:')), ...commandLines(`cd ${shellWord(root)} &&`, write)]
      : [
          lang.msg(t('Or write the marker by hand, from the workspace folder:')),
          ...commandLines(write[0], write.slice(1)),
        ]),
  ];
}

/** Decide a PreCompact hook run from its raw stdin. Never throws; errors allow. */
export async function preCompactGuard(stdin: string, opts: GuardOptions = {}): Promise<GuardDecision> {
  const { env, now, parsed, root } = hookRun(stdin, opts);
  const lang = opts.lang ?? ENGLISH;
  let d: GuardDecision;
  try {
    // Input cut at the reader's limit is no malformed payload (which allows): a manual /compact with
    // instructions that long would otherwise go through unguarded. Claude Code sends `trigger` before the
    // instructions, so the part read says whether the compaction is automatic, which is never stopped.
    d = opts.inputTooLarge
      ? /"trigger"\s*:\s*"auto"/.test(stdin)
        ? allow('auto', root, null, null, 'allow (trigger=auto, input over 8 MB, not read whole)')
        : block(
            'too-large',
            root,
            null,
            null,
            [
              lang.msg(
                t(
                  "Compaction stopped: the hook's input was over 8 MB, so it was not read whole, and the guard decides nothing from a part of it.",
                ),
              ),
              `1. ${lang.msg(t('Run /compact again with shorter instructions (what you type after /compact).'))}`,
            ].join('\n'),
            'BLOCK (input over 8 MB, not read whole)',
          )
      : parsed.ok
        ? await decide(parsed.payload, root, env, now, opts)
        : allow('malformed', root, null, null, `allow (malformed stdin: ${parsed.error})`);
  } catch (err) {
    d = allow('error', root, null, null, `allow (internal error: ${(err as Error)?.message ?? String(err)})`);
  }
  if (opts.log !== false) await appendHookLog(root, 'pre-compact', d.log, now);
  return d;
}

/** What the status line knows when it asks whether the session's checkpoint is done. */
export interface CheckpointDoneQuery {
  sessionId: string;
  /** The session's transcript (when the session began decides whether a shared marker counts). */
  transcript: string | null;
  env: NodeJS.ProcessEnv;
  /** When the agent first reported the figure shown (ISO; '' when not known). */
  figureAt: string;
  /** The time to decide at (ms; default now). */
  now?: number;
}

/**
 * The status line's and the reminder's "checkpoint done", decided as the status bar decides it: the
 * guard's own decision on a manual /compact of this session now (nothing logged), and the figure's
 * time against the turns the session's transcript shows after the marker (see `guardCheckpointed`).
 * Never throws.
 */
export async function checkpointDone(root: string, q: CheckpointDoneQuery): Promise<boolean> {
  try {
    const payload = {
      session_id: q.sessionId,
      ...(q.transcript ? { transcript_path: q.transcript } : {}),
      cwd: root,
      hook_event_name: 'PreCompact',
      trigger: 'manual',
    };
    const d = await preCompactGuard(JSON.stringify(payload), { root, env: q.env, now: q.now, log: false, turns: true });
    return guardCheckpointed(d, q.figureAt ? Date.parse(q.figureAt) : NaN);
  } catch {
    return false;
  }
}

function allow(
  rule: GuardRule,
  root: string,
  sessionId: string | null,
  marker: string | null,
  log: string,
): GuardDecision {
  return { allow: true, exitCode: 0, rule, reason: '', log, root, sessionId, marker };
}

function block(
  rule: GuardRule,
  root: string,
  sessionId: string | null,
  marker: string | null,
  reason: string,
  log: string,
): GuardDecision {
  return { allow: false, exitCode: 2, rule, reason, log, root, sessionId, marker };
}

/**
 * The blocking checks that fail now in the systems `ids` (their state changed after the checkpoint),
 * from the caller's whole report or an evaluation of those systems with every rule, without git (no
 * git fact decides whether a state file is still whole); `error` says why the evaluation could not
 * run (the guard allows on its own failure, and its log says so).
 */
async function brokenSince(
  root: string,
  now: number,
  ids: readonly SystemId[],
  known: WorkspaceReport | undefined,
): Promise<{ broken: Check[]; error: string | null }> {
  if (!ids.length) return { broken: [], error: null };
  let report: WorkspaceReport | null = known ?? null;
  if (!report) {
    try {
      const systems = SYSTEMS.filter((m) => ids.includes(m.id));
      report = await evaluateSystems(systems, root, { now, noGit: true });
    } catch (err) {
      return { broken: [], error: (err as Error)?.message ?? String(err) };
    }
  }
  const broken = (report?.systems ?? [])
    .filter((s) => !s.skipped && ids.includes(s.id))
    .flatMap((s) => s.checks.filter(isBlocking));
  return { broken, error: null };
}

/**
 * A vouched file's hash as the checkpoint took it: of what the readers read, its first
 * DEFAULT_MAX_BYTES bytes (a longer file is read, checked and vouched for by that much); null when it
 * is not a regular file or cannot be read.
 */
function readHash(file: string): string | null {
  const bytes = readStart(file, DEFAULT_MAX_BYTES);
  return bytes && sha256(bytes);
}

/**
 * What changed after the checkpoint, and the systems to check for it: a home file written more than
 * the grace after the marker (`worked`); a file the marker vouched for whose bytes are not the ones it
 * vouched for, whatever its times (a change within the grace, S4's PROGRESS.md, a file moved or linked
 * in its place); a state file it does not vouch for, whatever its times (a new checkpoint file, one
 * brought in with its folder). A system's state files that no document of this reading holds (its
 * `more`: S1's sidecar; with the hooks' reading, S1's memory stores and other handoffs, S2's project
 * state) are compared as the readers read them (`stateFileHash`), that system checked when one differs
 * or came since; any other file the marker vouched for is too, and then every system is checked (which
 * system holds it is not known here).
 */
async function changedSince(
  root: string,
  report: WorkspaceReport | null,
  marker: MarkerFile,
  worked: ReadonlyArray<{ rel: string }>,
): Promise<{ ids: SystemId[]; files: string[]; notCovered: string[] }> {
  const vouched = new Map(marker.content.hashes.map((h) => [h.path, h.hash.toLowerCase()]));
  const home = new Set(worked.map((w) => w.rel));
  const files = new Set<string>();
  const ids = new Set<SystemId>();
  const seen = new Set<string>();
  const active = (report?.systems ?? []).filter((s) => !s.skipped);
  for (const s of active) {
    for (const d of s.docs) {
      seen.add(d.relPath);
      const was = vouched.get(d.relPath);
      // Not the vouched bytes, whatever its times say: a file moved over it or copied with its old time,
      // a folder above it swapped, a link at it pointed elsewhere, or the marker touched since all leave
      // the times telling nothing. A file only touched is not named. One the marker does not vouch for
      // counts whatever its times (the checkpoint vouched for every state file it read, so this one came
      // since, maybe with its folder or before the marker was touched); a marker that vouches for no
      // bytes (one written by hand) tells nothing of the other files. A home that cannot be read
      // now and was not written since by its mtime is the `unreadable` rule's, which blocks too and says
      // why; any other file that cannot be read now is changed (that rule looks at homes only).
      const unreadableHome =
        d.relPath === s.home && d.findings.some((f) => f.id === 'readable') && !(d.mtime > marker.mtime);
      const changed = was === undefined ? vouched.size > 0 : d.hash !== was && !unreadableHome;
      if (changed) files.add(d.relPath);
      if (files.has(d.relPath) || home.has(d.relPath)) ids.add(s.id);
    }
    // Its state files that no document of this reading holds (S1's sidecar; the files only its rules
    // read): compared as the readers read them (`stateFileHash`), and one the marker does not vouch for
    // that is there now came since (a second handoff, a memory store written since).
    for (const rel of s.more ?? []) {
      if (seen.has(rel)) continue;
      seen.add(rel);
      const was = vouched.get(rel);
      const changed =
        was === undefined
          ? vouched.size > 0 && lstatOrNullSync(path.resolve(root, rel)) !== null
          : (await stateFileHash(root, rel)) !== was;
      if (changed) {
        files.add(rel);
        ids.add(s.id);
      }
    }
  }
  for (const [named, was] of vouched) {
    const rel = seen.has(named) ? null : insideRel(named);
    if (rel === null || seen.has(rel)) continue;
    // Read as the workspace's readers read it (`stateFileHash`): a link is followed while what it leads
    // to stays inside the root; one that leads out now is changed, unread (no reader reads it there: S2's
    // project state made a link out fails its system's `readable`), and its bytes decide nothing. A link
    // that resolves to nothing, a second hard link, bytes that are not UTF-8 text, no regular file: changed.
    if ((await stateFileHash(root, rel)) === was) continue;
    files.add(rel);
    for (const s of active) ids.add(s.id);
  }
  // What the checkpoint does not cover: a file whose bytes are not the ones the marker vouched for, or
  // that came since, whatever its times (the checkpoint checked, and its manual items were confirmed
  // on, the bytes it vouched for; a change within the grace after it was not read by it either). A
  // marker that vouches for no bytes (one written by hand) tells only by the times, as the idle rule
  // does: a home written past the grace after it.
  const notCovered = vouched.size ? [...files] : [...home];
  // A home file written past the grace is checked even when only touched: named when nothing else is.
  return { ids: [...ids], files: files.size ? [...files] : [...home], notCovered };
}

/**
 * While no system is switched on (a checkpoint then writes no marker), the homes of the systems
 * switched off, where a vouched file gone blocks nothing: a system switched off is never
 * checkpointed (S0 without `session.ledger: true`, as its seed says). Only a home the system
 * vouched for itself, on at the checkpoint (the marker vouches for its config file too), and no
 * other system's home (S0's `ledger_path` may name S3's STATE.md). While another system is on, a
 * vouched file gone blocks whoever read it: the marker names files, not the system that read each
 * (S2's project state may be kept at S0's path), and a new checkpoint lets /compact through.
 */
function switchedOffHomes(report: WorkspaceReport | null, vouched: ReadonlySet<string>): Set<string> {
  const off = new Set<string>();
  if (anyOn(report)) return off;
  for (const s of report?.systems ?? []) {
    const wasOn = switchesOf(s.id).some((c) => vouched.has(c));
    const elsewhere = ALL_FACTS.some((f) => f.id !== s.id && homesOf(f).includes(s.home));
    if (wasOn && !elsewhere) off.add(s.home);
  }
  return off;
}

/** The SHA-256 of no bytes: a file the checkpoint vouched for while it was already empty. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** A system's homes: its default one and the alternatives its facts name. */
const homesOf = (f: (typeof ALL_FACTS)[number]): string[] => [f.home, ...f.homeAlternatives];

/**
 * The step for the files a marker vouched for that are gone since: bring each back if what it held is
 * to be kept, then what a new checkpoint makes of the state as it is now (`judged`: the blocking checks
 * that fail now, wherever they are): refused while one fails, else it vouches for the state without
 * what the files held. When the checks could not run, `check` is the one to say.
 */
function goneStep(
  cli: string,
  gone: readonly string[],
  judged: { broken: Check[]; error: string | null },
  lang: Language,
): string[] {
  const many = gone.length > 1;
  // The one file by its name (a name with a line break is no name a shell line can show).
  const one = gone.length === 1 && oneLine(gone[0]) === gone[0] ? gone[0] : null;
  const file = one === null ? '<file>' : shellWord(one);
  const ids = [...new Set(judged.broken.map((c) => `${c.system} ${c.id}`))].join(', ');
  return [
    lang.msg(
      many
        ? t(
            'Bring back what they held if it is to be kept (git checkout -- {0}, for a file git tracks), or have your agent write them again.',
            file,
          )
        : t(
            'Bring back what it held if it is to be kept (git checkout -- {0}, for a file git tracks), or have your agent write it again.',
            file,
          ),
    ),
    `   ${lang.msg(
      judged.error
        ? t('Whether a checkpoint takes the state as it is now, `{0} check` says.', cli)
        : ids
          ? t(
              'As it is now the state fails {0}, so a checkpoint refuses until that is fixed (`{1} check` shows the fix).',
              ids,
              cli,
            )
          : many
            ? t(
                'As it is now the state fails no blocking check, so the checkpoint below vouches for it without what they held.',
              )
            : t(
                'As it is now the state fails no blocking check, so the checkpoint below vouches for it without what it held.',
              ),
    )}`,
    `   ${lang.msg(t('Touching the marker does not help: it vouches for the bytes that are gone.'))}`,
  ];
}

/**
 * The files a marker vouched for that are now gone, empty or no longer a state file: the emptiest
 * skeleton, which no detection finds (a system whose file is gone or emptied is no longer detected,
 * so its file is no longer watched). The marker names files, not the system that read each, so a
 * vouched file gone blocks whoever read it, unless the caller exempts it (switchedOffHomes).
 */
function vouchedGone(root: string, marker: MarkerFile, report: WorkspaceReport | null): string[] {
  const homes = new Set(ALL_FACTS.flatMap(homesOf));
  // No longer a state file: a home of a system not detected now, no home of a detected one (a system
  // switched off included), read by no system and not kept there by one (S2's project state, which
  // only its full rules read, at another system's home), and not the bytes the checkpoint vouched
  // for: rewritten without its system's headings (someone else's file).
  const systems = report?.systems ?? [];
  const detected = new Set(systems.map((s) => s.id));
  const claimed = new Set(ALL_FACTS.filter((f) => detected.has(f.id)).flatMap(homesOf));
  const orphanHomes = new Set(
    report === null
      ? []
      : ALL_FACTS.filter((f) => !detected.has(f.id))
          .flatMap(homesOf)
          .filter((h) => !claimed.has(h)),
  );
  const read = new Set(systems.flatMap((s) => s.docs.map((d) => d.relPath)));
  // Only S2's manifest names a project state. Another document's meta is not looked at: without every rule
  // a document is masked and parsed when first looked at (Workspace.loadDoc), and nothing else here needs it.
  for (const s of systems)
    for (const d of s.docs) {
      if (d.role !== 'manifest') continue;
      const ps = (d.meta?.manifest as { projectState?: unknown } | undefined)?.projectState;
      const kept = typeof ps === 'string' ? insideRel(ps) : null;
      if (kept !== null) read.add(kept);
    }
  // A system's switch holds no state: removing it switches the system off.
  const switches = new Set(ALL_FACTS.flatMap((f) => switchesOf(f.id)));
  // A state file no document holds that its system names even when it is missing (S1's sidecar): gone,
  // its system's rules judge it (what changed is checked).
  const judged = new Set(systems.flatMap((s) => s.more ?? []));
  const out: string[] = [];
  for (const { path: named, hash } of marker.content.hashes) {
    const rel = insideRel(named);
    if (rel === null || switches.has(rel)) continue;
    const abs = path.join(root, rel);
    const st = lstatOrNullSync(abs);
    // A link there that leads nowhere is as missing to its reader (NO_SIDECAR) as no file; a loop is compared (changedSince).
    if (judged.has(rel) && (!st || realpathOrNullSync(abs) === null)) continue;
    // A link that leads nowhere (dangling, a loop) is as gone as a removed file; a home emptied is too.
    // The marker does not say which file was a home at a path set in configuration (S0's ledger_path):
    // any vouched file gone counts.
    if (
      !st ||
      (st.isSymbolicLink() && realpathOrNullSync(abs) === null) ||
      // Emptied since: a home, or any file the checkpoint vouched for with bytes in it (S2's plan, a memory store).
      (st.isFile() && st.size === 0 && (homes.has(rel) || hash.toLowerCase() !== EMPTY_SHA256)) ||
      (orphanHomes.has(rel) && st.isFile() && !read.has(rel) && readHash(abs) !== hash.toLowerCase())
    )
      out.push(rel);
  }
  return out;
}

/**
 * The home files a marker vouched for that cannot be read now (permission taken away, binary or not
 * UTF-8, a folder or a loop where the file was): their blocking `readable` checks. The skeleton check
 * read each home already, so this reads nothing more.
 */
function vouchedUnreadable(report: WorkspaceReport | null, vouched: ReadonlySet<string>): Check[] {
  return (report?.systems ?? []).flatMap((s) => {
    const home = s.skipped || !vouched.has(s.home) ? undefined : s.docs.find((d) => d.relPath === s.home);
    return home ? findingChecks(s.id, [home]).filter((c) => c.id === 'readable') : [];
  });
}

/**
 * What the transcript at `transcript` (absolute) says of the turns after a marker written at `markerMtime`:
 * the first that began within CHECKPOINT_TURN_MS of it (a later one changes nothing: a figure that late is
 * after the checkpoint whatever began when), as read now; undefined when it cannot tell.
 */
async function turnAfterMarker(transcript: string, markerMtime: number): Promise<TurnAfterMarker | undefined> {
  if (!path.isAbsolute(transcript)) return undefined;
  const read = Date.now();
  const began = await firstTurnBetween(transcript, markerMtime, markerMtime + CHECKPOINT_TURN_MS);
  return began === undefined ? undefined : { began, read };
}

async function decide(
  p: HookPayload,
  root: string,
  env: NodeJS.ProcessEnv,
  now: number,
  opts: GuardOptions,
): Promise<GuardDecision> {
  const known = opts.report;
  const event = str(p.hook_event_name);
  if (event && event !== 'PreCompact')
    return allow('not-precompact', root, null, null, `allow (hook_event_name is ${event}, not PreCompact)`);
  const trigger = str(p.trigger);
  const sid = isSessionId(p.session_id) ? p.session_id : null;
  if (trigger && trigger !== 'manual') return allow('auto', root, sid, null, `allow (trigger=${trigger}, not manual)`);

  // Which marker speaks for this session (the same choice the reminder and the status bar make).
  const transcript = str(p.transcript_path);
  const choice = await chooseMarker(root, sid, now, () =>
    transcript && path.isAbsolute(transcript) ? transcriptBegan(transcript) : null,
  );
  const optOut = optedOut(choice);
  if (optOut) return allow('opt-out', root, sid, optOut.rel, `allow (nothing-to-preserve in ${optOut.rel})`);
  const speaking = choice.kind === 'marker' ? choice.marker : null;
  // A marker that is there but cannot be read is the guard's own failure, not the user's: it allows (and the log says why).
  if (choice.kind === 'unreadable')
    return allow(
      'marker-error',
      root,
      sid,
      choice.rel,
      `allow (cannot read the marker ${choice.rel}: ${choice.error})`,
    );
  const wanted = markerRel(sid);
  const cli = cliCommand(root, opts);
  const lang = opts.lang ?? ENGLISH;
  const say = (m: Msg): string => lang.msg(m);
  let report: WorkspaceReport | null = known ?? null;
  if (!report) {
    try {
      // With a marker the guard asks only whether a state file is still an empty skeleton (and the home
      // documents' mtimes): only that check runs, without git, as no git fact changes it. Without a
      // marker the block names only the systems' files and their manual items: no system's rules run.
      report = await evaluateSystems(HOOK_SYSTEMS, root, { now, noGit: true, rules: speaking ? 'skeleton' : false });
    } catch {
      report = null; // the rules that need the state files are skipped; the marker rules still hold
    }
  }
  // The markers' folder is a link: no marker there is a checkpoint's, and checkpoint writes none through it.
  // The workspace's own `cd`, unless its path holds a line break (its shown form is another path).
  const cdRoot = oneLine(root) === root ? `cd ${shellQuote(root)} && ` : '';
  if (choice.kind === 'linked')
    return block(
      'no-marker',
      root,
      sid,
      null,
      [
        say(
          t(
            'Compaction stopped: {0} is a symbolic link. Session Ledger writes its checkpoint markers through no link, so no marker there proves a checkpoint, and `checkpoint` writes none there.',
            oneLine(choice.folder),
          ),
        ),
        ...stepsTo(
          cli,
          sid,
          report,
          [
            [
              // The folder is the shared marker's, `.claude`. The command stops at the first step that fails: a
              // link that leads nowhere, a copy left from an earlier try; the link goes only once the copy is made,
              // and a marker the copy brought along proves nothing. `cd -P ./.claude` takes no CDPATH folder.
              say(
                cdRoot
                  ? t(
                      'Make {0} a folder of its own instead of a link, holding what the link leads to (in a POSIX shell):',
                      oneLine(choice.folder),
                    )
                  : t(
                      'Make {0} a folder of its own instead of a link, holding what the link leads to (in a POSIX shell, from the workspace folder):',
                      oneLine(choice.folder),
                    ),
              ),
              `   ${cdRoot}t=$(cd -P ./.claude && pwd -P) && mkdir .claude.copy && cp -a "$t"/. .claude.copy && rm .claude && mv .claude.copy .claude && rm -f .claude/.checkpoint-ready*`,
              `   ${say(t('A .claude.copy left from an earlier try stops it: look inside, then remove it.'))}`,
              `   ${say(
                t(
                  'If the link leads nowhere: {0}rm .claude && mkdir .claude, then install the hooks again (Session Ledger: Install guard hooks, or session-ledger hooks install).',
                  cdRoot,
                ),
              )}`,
            ],
            bringUpToDate(cli, report, lang, opts.agent),
          ],
          lang,
        ),
      ].join('\n'),
      `BLOCK (${choice.folder} is a symbolic link: no marker)`,
    );
  // What stands at this session's marker (or, without one, at the shared marker) and is no marker: blocked, and said.
  if (choice.kind === 'planted')
    return block(
      'no-marker',
      root,
      sid,
      null,
      [
        say(
          t(
            'Compaction stopped: {0} is {1}, not a marker Session Ledger wrote, so it proves no checkpoint.',
            oneLine(choice.rel),
            choice.why,
          ),
        ),
        // One git tracks stays in git's index once removed: untracked too, or the next run finds it again.
        ...stepsTo(
          cli,
          sid,
          report,
          [
            [
              say(
                choice.tracked
                  ? t(
                      'Remove it and stop tracking it (it came with the repository): git rm -r --cached {0} && rm -r {0}',
                      oneLine(choice.rel),
                    )
                  : t('Remove it: rm -r {0}', oneLine(choice.rel)),
              ),
            ],
            bringUpToDate(cli, report, lang, opts.agent),
          ],
          lang,
        ),
      ].join('\n'),
      `BLOCK (${choice.rel} is ${choice.why.text}: no marker)`,
    );
  if (choice.kind === 'none') {
    const { foreign, notOurs, sharedMtime } = choice;
    const trackedShared = wanted === SHARED_MARKER_REL && notOurs === 'tracked';
    // What is true, then each note a sentence of its own, led by the space that parts it from the one
    // before (a Japanese sentence follows with none).
    const said = [
      foreign?.rel === wanted
        ? t("Compaction stopped: no checkpoint has run in this session ({0} is another session's).", wanted)
        : trackedShared
          ? t('Compaction stopped: no checkpoint has run in this session ({0} is tracked by git).', wanted)
          : t('Compaction stopped: no checkpoint has run in this session ({0} is missing).', wanted),
      foreign
        ? foreign.rel === SHARED_MARKER_REL
          ? t(
              ' The shared {0} names session {1}, not this one; a marker counts only for the session it names.',
              foreign.rel,
              foreign.signer,
            )
          : t(
              ' {0} names session {1}, not this one; a marker counts only for the session it names.',
              foreign.rel,
              foreign.signer,
            )
        : notOurs === 'tracked'
          ? t(
              ' The shared {0} is tracked by git: it came with the repository, so it proves no checkpoint in this session.',
              SHARED_MARKER_REL,
            )
          : notOurs === 'before'
            ? t(
                ' The shared {0} was written before this session began (at {1}; it may come with the repository or from an earlier session), so it proves no checkpoint in this one.',
                SHARED_MARKER_REL,
                localTime(sharedMtime ?? 0),
              )
            : null,
      sid
        ? null
        : t(
            ' ({0} sent no usable session id, so the shared marker is the one that counts.)',
            opts.agent === 'codex' ? 'Codex' : 'Claude Code',
          ),
    ];
    return block(
      foreign ? 'foreign-marker' : 'no-marker',
      root,
      sid,
      null,
      [
        said.map((m) => (m ? say(m) : '')).join(''),
        // The shared marker this guard reads is one git tracks: checkpoint writes none there until it is untracked.
        ...(trackedShared
          ? stepsTo(
              cli,
              sid,
              report,
              [
                [say(t('Stop tracking it (it came with the repository): git rm --cached {0}', SHARED_MARKER_REL))],
                bringUpToDate(cli, report, lang, opts.agent),
              ],
              lang,
            )
          : checkpointSteps(cli, sid, report, lang, opts.agent)),
        ...optOutLines(cli, sid, wanted, root, lang),
      ].join('\n'),
      foreign
        ? `BLOCK (no marker for this session; ${foreign.rel === SHARED_MARKER_REL ? 'shared marker' : foreign.rel} signed by ${foreign.signer})`
        : notOurs
          ? `BLOCK (no marker: ${wanted}; the shared marker ${notOurs === 'tracked' ? 'is tracked by git' : 'predates the session'})`
          : `BLOCK (no marker: ${wanted})`,
    );
  }
  // Every other choice is answered above: a marker speaks for the session.
  const { marker } = choice;

  // A block that asks for a new checkpoint: what is true, then the steps (`first`, then the checkpoint's own).
  const checkpointAgain = (said: Msg, first: string[][]): string =>
    [say(said), ...stepsTo(cli, sid, report, first, lang)].join('\n');
  const docs = homeDocs(report);
  // A block once a marker speaks for the session: its log line names the marker.
  const stop = (rule: GuardRule, message: string, log: string) => block(rule, root, sid, marker.rel, message, log);
  // A marker that vouches for files (the checkpoint's) must vouch for every home the guard watches: a
  // system switched on or appearing since was never checked by that checkpoint.
  const vouched = new Set(marker.content.hashes.map((h) => h.path));
  const unvouched = vouched.size ? docs.filter((x) => !vouched.has(x.rel)) : [];
  if (unvouched.length) {
    const files = unvouched.map((x) => oneLine(x.rel)).join(', ');
    return stop(
      'unvouched',
      checkpointAgain(
        t(
          'Compaction stopped: {0} was not part of the last checkpoint (its system was switched on or appeared since), so nothing vouches for it.',
          files,
        ),
        [[say(t('Have your agent bring {0} up to date.', files))]],
      ),
      `BLOCK (${files} not vouched for by marker ${marker.rel})`,
    );
  }
  // A system switched off is never checkpointed (S0 without `session.ledger: true`): its file blocks nothing.
  const skeleton =
    report?.systems
      .filter((s) => !s.skipped)
      .flatMap((s) => s.checks.filter((c) => c.id === 'not-skeleton' && c.status === 'fail')) ?? [];
  // No system switched on (S0 switched off, the others gone): `checkpoint` writes no marker then.
  const noneOn = !anyOn(report);
  // Each vouched file is looked at once; the block with no system on names the exempt ones too.
  const allGone = vouchedGone(root, marker, report);
  const off = switchedOffHomes(report, vouched);
  const gone = allGone.filter((f) => !off.has(f));
  if (skeleton.length || gone.length) {
    const optOut = optOutLines(cli, sid, marker.rel, root, lang);
    // With no system on, the way out is the files back, or the opt-out; a new checkpoint is not asked for.
    // Every vouched file gone is named, a switched-off system's too: once another is back, that one blocks.
    if (!skeleton.length && noneOn) {
      const all = allGone.map(oneLine).join(', ');
      const many = allGone.length > 1;
      return stop(
        'gone',
        [
          say(
            many
              ? t(
                  'Compaction stopped: a checkpoint ran, but {0} are gone, empty, no longer a state file or a link that leads nowhere since (the checkpoint vouched for them), so what they held would not come back after the summary. No system is switched on now, so a new checkpoint can vouch for nothing.',
                  all,
                )
              : t(
                  'Compaction stopped: a checkpoint ran, but {0} is gone, empty, no longer a state file or a link that leads nowhere since (the checkpoint vouched for it), so what it held would not come back after the summary. No system is switched on now, so a new checkpoint can vouch for nothing.',
                  all,
                ),
          ),
          `1. ${say(
            many
              ? t(
                  'If they held state to keep, bring them back (git checkout -- <file>, for a file git tracks), then run /compact again.',
                )
              : t(
                  'If it held state to keep, bring it back (git checkout -- <file>, for a file git tracks), then run /compact again.',
                ),
          )}`,
          ...optOut,
        ].join('\n'),
        `BLOCK (marker ${marker.rel} present, but ${all} ${many ? 'are' : 'is'} gone, empty, no longer a state file or a link to nowhere; no system is on)`,
      );
    }
    // Each file said as what it is: an empty skeleton, or gone since the checkpoint vouched for it.
    const skeletons = [...new Set(skeleton.map((c) => c.path ?? c.system))].filter((f) => !gone.includes(f));
    const listed = (xs: readonly string[]) => xs.map(oneLine).join(', ');
    const many = gone.length > 1;
    const empty = skeletons.length
      ? skeletons.length > 1
        ? t('{0} are empty skeletons', listed(skeletons))
        : t('{0} is an empty skeleton', listed(skeletons))
      : null;
    const went = gone.length
      ? many
        ? t(
            '{0} are gone, empty, no longer a state file or a link that leads nowhere since (the checkpoint vouched for them)',
            listed(gone),
          )
        : t(
            '{0} is gone, empty, no longer a state file or a link that leads nowhere since (the checkpoint vouched for it)',
            listed(gone),
          )
      : null;
    const said = empty && went ? t('{0}, and {1}', empty, went) : ((empty ?? went) as Msg);
    // The log's words: each file as what it is, without the checkpoint's part.
    const logged = [
      empty?.text,
      gone.length &&
        `${listed(gone)} ${many ? 'are' : 'is'} gone, empty, no longer a state file or a link that leads nowhere`,
    ];
    // What a new checkpoint makes of the state without what the files held: the blocking checks that fail
    // now (every rule of the systems switched on, without git; the caller's report when it has one). An
    // empty file of a kind its seed refuses (a home, S1's MEMORY.md) must come back first; any other is
    // taken as it is.
    const on = (report?.systems ?? []).filter((s) => !s.skipped).map((s) => s.id);
    const judged = gone.length ? await brokenSince(root, now, on, known) : { broken: [], error: null };
    const first: string[][] = [];
    if (skeletons.length)
      first.push([
        say(
          t(
            'Have your agent write the state down for real: the goal, each decision with what it beat, each verified fact with its command, one concrete next action.',
          ),
        ),
        `   ${say(
          skeletons.length > 1
            ? t('Touching the marker does not help here: the files themselves are the problem.')
            : t('Touching the marker does not help here: the file itself is the problem.'),
        )}`,
      ]);
    if (gone.length) first.push(goneStep(cli, gone, judged, lang));
    return stop(
      skeleton.length ? 'skeleton' : 'gone',
      [
        checkpointAgain(
          !gone.length
            ? t('Compaction stopped: a checkpoint ran, but {0}, so nothing would come back after the summary.', said)
            : many
              ? t(
                  'Compaction stopped: a checkpoint ran, but {0}, so what they held would not come back after the summary.',
                  said,
                )
              : t(
                  'Compaction stopped: a checkpoint ran, but {0}, so what it held would not come back after the summary.',
                  said,
                ),
          first,
        ),
        ...optOut,
      ].join('\n'),
      `BLOCK (marker ${marker.rel} present, but ${logged.filter(Boolean).join('; ')})`,
    );
  }

  const ageMin = Math.max(0, Math.floor((now - marker.mtime) / 60_000));
  const worked = docs.filter((x) => x.mtime > marker.mtime + IDLE_GRACE_MS);
  const max = maxAgeMinutes(env);
  const fresh = now - marker.mtime <= max * 60_000;
  // With no system switched on, nothing a checkpoint vouches for is watched, and a checkpoint writes no
  // marker: nothing changed that one could vouch for (a vouched file gone is stopped above).
  const idle = (docs.length > 0 || noneOn) && worked.length === 0;
  // What changed since the checkpoint is taken as it is now only while it is still whole: its system's
  // blocking checks run on it (every rule; the caller's report when it has one). A marker past its
  // window with work since is stopped below anyway.
  const since =
    fresh || idle ? await changedSince(root, report, marker, worked) : { ids: [], files: [], notCovered: [] };
  const { broken: failing, error: sinceError } = await brokenSince(root, now, since.ids, known);
  // A system whose files could not be read at all (its reader failed: a fault of this tool, never of the
  // files) was compared with nothing: an allow says it was not checked, as for any failure of the guard's own.
  const unread = (report?.systems ?? []).flatMap((s) =>
    s.docs.length ? [] : s.checks.filter((c) => c.id === 'internal' && c.status === 'fail'),
  );
  const error =
    [sinceError, ...unread.map((c) => c.message.replace(/\s+/g, ' ').replace(/\.$/, ''))].filter(Boolean).join('; ') ||
    null;
  // A home the checkpoint vouched for that cannot be read now is as changed as a rewritten one, whatever its time says.
  const unreadable = vouchedUnreadable(report, vouched).filter(
    (u) => !failing.some((c) => c.system === u.system && c.id === u.id && c.path === u.path),
  );
  const broken = [...failing, ...unreadable];
  if (broken.length) {
    // Only unreadable homes: those are the files to name, not every file checked since.
    const cannotRead = unreadable.map((u) => u.path ?? u.system);
    const files = (failing.length ? [...new Set([...since.files, ...cannotRead])] : cannotRead).map(oneLine).join(', ');
    const failed = broken
      .map((c) => `${c.system} ${c.id}: ${sentence(lang.msg(saidMsg(c)).replace(/\s+/g, ' '))}`)
      .join('; ');
    const ids = [...new Set(broken.map((c) => `${c.system} ${c.id}`))].join(', ');
    // Only a vouched home that cannot be read now: its bytes may be the checkpoint's, but no new context could read them.
    const said = !failing.length
      ? t(
          'Compaction stopped: {0} cannot be read now ({1}), so what the checkpoint vouched for would not come back after the summary.',
          files,
          failed,
        )
      : broken.length === 1
        ? t(
            'Compaction stopped: since the last checkpoint {0} changed, and the state now fails a blocking check ({1}), so that checkpoint no longer vouches for it.',
            files,
            failed,
          )
        : t(
            'Compaction stopped: since the last checkpoint {0} changed, and the state now fails {1} blocking checks ({2}), so that checkpoint no longer vouches for it.',
            files,
            broken.length,
            failed,
          );
    return stop(
      failing.length ? 'broken' : 'unreadable',
      checkpointAgain(said, [[say(t('Fix it first: `{0} check` shows each with its fix.', cli))]]),
      failing.length
        ? `BLOCK (${files} changed since the checkpoint; fails ${ids})`
        : `BLOCK (${files} cannot be read now; fails ${ids})`,
    );
  }
  // Allowed on the checkpoint's marker (its time goes with the decision). On the guard's own failure to
  // check what changed, the log says so and no surface may say the checkpoint is done on it.
  const allowOn = async (rule: 'idle' | 'fresh', said: string): Promise<GuardDecision> => {
    const unchecked = error ? `; not every state file could be checked: ${error}` : '';
    const d = allow(rule, root, sid, marker.rel, `allow (${said}${unchecked})`);
    const turnAfter = opts.turns && transcript ? await turnAfterMarker(transcript, marker.mtime) : undefined;
    return {
      ...d,
      markerMtime: marker.mtime,
      ...(turnAfter ? { turnAfter } : {}),
      ...(error ? { unchecked: error } : {}),
      ...(since.notCovered.length ? { changed: since.notCovered } : {}),
    };
  };
  if (idle) {
    const checked = since.files.length ? `changed and checked: ${since.files.join(', ')}; ` : '';
    const why = noneOn
      ? `no system is switched on; ${checked}`
      : checked
        ? `no home file written past the grace; ${checked}`
        : 'state files untouched, ';
    return allowOn('idle', `idle since checkpoint: ${why}marker ${marker.rel} age ${ageMin} min irrelevant`);
  }
  if (fresh) return allowOn('fresh', `marker ${marker.rel} ${ageMin} min old <= ${max} min`);
  const changed = worked.map((x) => oneLine(x.rel)).join(', ');
  return stop(
    'stale',
    checkpointAgain(
      changed
        ? t(
            'Compaction stopped: {0} changed after the last checkpoint, and that checkpoint is {1} min old (window {2} min, SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN), so the newest work is not vouched for.',
            changed,
            ageMin,
            max,
          )
        : t(
            'Compaction stopped: the state changed after the last checkpoint, and that checkpoint is {0} min old (window {1} min, SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN), so the newest work is not vouched for.',
            ageMin,
            max,
          ),
      [
        [
          say(
            changed
              ? t('Have your agent bring {0} up to date.', changed)
              : t('Have your agent bring the state file up to date.'),
          ),
        ],
      ],
    ),
    `BLOCK (work since checkpoint in ${changed || '?'} and marker ${marker.rel} ${ageMin} min > ${max} min)`,
  );
}
