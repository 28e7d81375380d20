/**
 * `session-ledger context [--root DIR] [--transcript FILE] [--agent claude|codex] [--json]`:
 * how full the agent's context window is. Exit 0 with a figure, 3 when no session (or no usage)
 * is found, 2 for bad usage. Loads only the meter (the system readers only to pick thresholds).
 */
import * as path from 'node:path';
import {
  detectSystems,
  levelOf,
  measureDetailed,
  switchedOn,
  thresholdProfile,
  type ContextUsage,
  type Level,
  type ThresholdProfile,
} from '../../core/context';
import {
  compactionsAdviceOf,
  COMPACTIONS_ADVICE_AT,
  COUNT_BUDGET_BYTES,
  countCompactions,
} from '../../core/context/compactions';
import { claudeHome, claudeProjectDirName, codexHome } from '../../core/context/discovery';
import { sizeText } from '../../core/context/measure';
import { statOrNull } from '../../core/context/files';
import { ENGLISH, t, type Language, type Msg } from '../../core/model/messages';
import { parse, SaidUsageError } from '../args';
import { cliLanguage, sayEnglish } from '../bundle';
import { projectRoot } from '../project';
import { type Io } from '../io';
import { checkpointMade, tokens } from '../status-line';
import type { CheckpointDone } from '../../core/hooks/remind';

export type ContextJson = ContextUsage & {
  thresholds: ThresholdProfile;
  level: Level;
  /**
   * The session's compactions so far: a Claude Code transcript's `compact_boundary` records, a Codex
   * CLI rollout's `compacted` records (one per /compact or automatic compaction). Null while a long
   * transcript is still being counted (each run counts the next 256 KB, so the figure never waits
   * for a pass over the whole file).
   */
  compactions: number | null;
  /** A switched-on system's seed advises a fresh context after this many compactions (S0: 2+): its advice, else null. */
  advice: string | null;
};

const AGENT_NAME = { claude: 'Claude Code', codex: 'Codex CLI' } as const;

/**
 * The marks the level is read against, in `lang`, with why they are these (`thresholdProfile`, as the status
 * line takes them): the one system here, the one of several whose marks come earliest (`systems`: how
 * many are here), or the default when no system is.
 */
function thresholdText(th: ThresholdProfile, systems: number, lang: Language): string {
  const marks = `${th.propose}%${th.urgent !== null ? `/${th.urgent}%` : ''}`;
  if (th.profile === 'default' && systems === 0) return lang.msg(t('default: {0}, no system here', marks));
  if (!/^S\d$/.test(th.profile)) return `${th.profile}: ${marks}`;
  return lang.msg(
    systems > 1
      ? t('{0}: {1}, the earliest of the {2} systems here', th.profile, marks, systems)
      : t('{0}: {1}, the one system here', th.profile, marks),
  );
}

/** A level in `context`'s words: the status line's (`levelText`), said in `lang`; past a mark with the checkpoint made, "checkpoint done". */
function levelSaid(level: Level, lang: Language, done = false): string {
  return level === 'ok'
    ? lang.msg(t('ok'))
    : done
      ? lang.msg(t('checkpoint done'))
      : level === 'urgent'
        ? lang.msg(t('checkpoint now'))
        : lang.msg(t('checkpoint proposed'));
}

/**
 * The figure in one line, in `lang` (the figures, the agent, the model and the session id as they are),
 * with the marks of the `systems` here (how many); `done`: past a mark, the checkpoint it asks for is made (`checkpointMade`).
 */
export function usageLine(u: ContextJson, systems: number, lang: Language = ENGLISH, done = false): string {
  const say = (m: Msg): string => lang.msg(m);
  const agent = AGENT_NAME[u.agent];
  const parts =
    u.percent === null || u.windowTokens === null
      ? [`${agent} ${say(t('{0} tokens', tokens(u.usedTokens)))}`, say(t('window unknown (no percentage)'))]
      : [`${agent} ${u.percent}%`, say(t('{0} of {1} tokens', tokens(u.usedTokens), tokens(u.windowTokens)))];
  // Without a window there is no level to tell.
  if (u.percent !== null)
    parts.push(`${levelSaid(u.level, lang, done)} (${thresholdText(u.thresholds, systems, lang)})`);
  if (u.afterCompaction) parts.push(say(t('after compaction')));
  if (u.tooLargeRecordBytes !== undefined)
    parts.push(
      say(
        t(
          'the newest record ({0}) is too large to read: this figure is the last one before it',
          sizeText(u.tooLargeRecordBytes),
        ),
      ),
    );
  if (u.compactions) parts.push(say(u.compactions === 1 ? t('1 compaction') : t('{0} compactions', u.compactions)));
  if (u.advice) parts.push(u.advice);
  if (u.model) parts.push(u.model);
  // The source in words, as the status item's tooltip says it: the transcript, or Claude Code's status line.
  const source = u.source === 'statusline' ? t("Claude Code's status line") : t('transcript');
  parts.push(say(t('session {0}', u.sessionId ?? '?')), say(t('from {0}', source)));
  return parts.join(' · ');
}

/** Why no session was found, in `lang`: which client's, for which folder. */
function noSessionSaid(agent: string | undefined, root: string): Msg {
  if (agent === 'codex') return t('no Codex CLI session found for {0}', root);
  if (agent === 'claude') return t('no Claude Code session found for {0}', root);
  return t('no Claude Code or Codex CLI session found for {0}', root);
}

/**
 * `checkpointDone` is the guard's "checkpoint done" (core's `checkpointDone`), as the status line asks it:
 * the core passes its own, the hook script's meter one that loads the guard's part when asked; without
 * it the line says the level alone.
 */
export async function run(args: string[], io: Io, checkpointDone: CheckpointDone | null = null): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    transcript: { type: 'string' },
    agent: { type: 'string' },
    json: { type: 'boolean' },
  });
  const agent = values.agent;
  if (agent !== undefined && agent !== 'claude' && agent !== 'codex')
    throw new SaidUsageError(t("--agent must be claude or codex, not '{0}'", agent));
  const root = await projectRoot(values.root, io);
  let transcript: string | undefined;
  if (values.transcript !== undefined) {
    transcript = path.resolve(io.cwd, values.transcript);
    const st = await statOrNull(transcript);
    if (!st) throw new SaidUsageError(t('transcript not found: {0}', transcript));
    if (!st.isFile()) throw new SaidUsageError(t('transcript is not a file: {0}', transcript));
  }
  const result = await measureDetailed(root, { agent, transcript, env: io.env });
  // The words of the locale's language (its bundle read only then, and never for --json).
  const lang = values.json ? ENGLISH : await cliLanguage(io.env);
  if (!values.json) sayEnglish(io, lang);
  if (!result.usages.length) {
    // No session at all: the measure's reason, in the language.
    const none = !transcript && !result.sessions.length;
    const why = none ? [lang.msg(noSessionSaid(agent, root))] : result.reasons;
    io.stderr(`session-ledger context: ${why.join('; ') || lang.msg(t('no usage found'))}`);
    if (none) {
      const opts = { env: io.env };
      const where = [
        ...(agent !== 'codex' ? [path.join(claudeHome(opts), 'projects', claudeProjectDirName(root)) + path.sep] : []),
        ...(agent !== 'claude' ? [path.join(codexHome(opts), 'sessions') + path.sep] : []),
      ];
      io.stderr(
        lang.msg(
          where.length === 1
            ? t(
                'Looked in {0}. Name a transcript with --transcript FILE, or set CLAUDE_CONFIG_DIR (Claude Code) or CODEX_HOME (Codex CLI) when the agent keeps its sessions elsewhere.',
                where[0],
              )
            : t(
                'Looked in {0} and {1}. Name a transcript with --transcript FILE, or set CLAUDE_CONFIG_DIR (Claude Code) or CODEX_HOME (Codex CLI) when the agent keeps its sessions elsewhere.',
                where[0],
                where[1],
              ),
        ),
      );
    }
    return 3;
  }
  const systems = await detectSystems(root);
  const thresholds = thresholdProfile(systems);
  const counts = await Promise.all(
    result.usages.map(async (u) => {
      const counted = await countCompactions(u.transcriptPath, COUNT_BUDGET_BYTES, u.agent);
      return counted.complete ? counted.count : null;
    }),
  );
  // The advice of a system only while it is on: present and not switched off by its own configuration
  // (asked only when a session has had enough compactions for any system's advice).
  const advice = counts.some((n) => n !== null && n >= COMPACTIONS_ADVICE_AT)
    ? compactionsAdviceOf(await switchedOn(root, systems))
    : null;
  const out: ContextJson[] = result.usages.map((u, i) => {
    const compactions = counts[i];
    const said = compactions !== null && advice && compactions >= advice.at ? advice.line : null;
    return { ...u, thresholds, level: levelOf(u.percent, thresholds), compactions, advice: said };
  });
  if (values.json) io.stdout(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
  else {
    // Past a mark, the status line's "checkpoint done" when the guard says the session's checkpoint covers its figure.
    const done = await Promise.all(
      out.map((u) =>
        u.agent === 'claude' && u.level !== 'ok'
          ? checkpointMade(
              root,
              { sessionId: u.sessionId, transcript: u.transcriptPath, env: io.env, figureAt: u.at ?? '' },
              checkpointDone,
            )
          : false,
      ),
    );
    io.stdout(out.map((u, i) => usageLine(u, systems.length, lang, done[i])).join('\n'));
  }
  return 0;
}
