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
import { parse } from '../args';
import { projectRoot } from '../project';
import { UsageError, type Io } from '../io';
import { levelText, tokens } from '../status-line';

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

/** `84.6k`, `1M`. */
function thresholdText(t: ThresholdProfile): string {
  return `${t.profile}: ${t.propose}%${t.urgent !== null ? `/${t.urgent}%` : ''}`;
}

export function usageLine(u: ContextJson): string {
  const parts =
    u.percent === null || u.windowTokens === null
      ? [`${AGENT_NAME[u.agent]} ${tokens(u.usedTokens)} tokens`, 'window unknown (no percentage)']
      : [`${AGENT_NAME[u.agent]} ${u.percent}%`, `${tokens(u.usedTokens)} of ${tokens(u.windowTokens)} tokens`];
  // Without a window there is no level to tell.
  if (u.percent !== null) parts.push(`${levelText(u.level)} (${thresholdText(u.thresholds)})`);
  if (u.afterCompaction) parts.push('after compaction');
  if (u.tooLargeRecordBytes !== undefined)
    parts.push(
      `the newest record (${sizeText(u.tooLargeRecordBytes)}) is too large to read: this figure is the last one before it`,
    );
  if (u.compactions) parts.push(`${u.compactions} compaction${u.compactions === 1 ? '' : 's'}`);
  if (u.advice) parts.push(u.advice);
  if (u.model) parts.push(u.model);
  parts.push(`session ${u.sessionId ?? '?'}`, `from ${u.source}`);
  return parts.join(' · ');
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    transcript: { type: 'string' },
    agent: { type: 'string' },
    json: { type: 'boolean' },
  });
  const agent = values.agent;
  if (agent !== undefined && agent !== 'claude' && agent !== 'codex')
    throw new UsageError(`--agent must be claude or codex, not '${agent}'`);
  const root = await projectRoot(values.root, io);
  let transcript: string | undefined;
  if (values.transcript !== undefined) {
    transcript = path.resolve(io.cwd, values.transcript);
    const st = await statOrNull(transcript);
    if (!st) throw new UsageError(`transcript not found: ${transcript}`);
    if (!st.isFile()) throw new UsageError(`transcript is not a file: ${transcript}`);
  }
  const result = await measureDetailed(root, { agent, transcript, env: io.env });
  if (!result.usages.length) {
    io.stderr(`session-ledger context: ${result.reasons.join('; ') || 'no usage found'}`);
    if (!transcript && !result.sessions.length) {
      const opts = { env: io.env };
      const where = [
        ...(agent !== 'codex' ? [path.join(claudeHome(opts), 'projects', claudeProjectDirName(root)) + path.sep] : []),
        ...(agent !== 'claude' ? [path.join(codexHome(opts), 'sessions') + path.sep] : []),
      ];
      io.stderr(
        `Looked in ${where.join(' and ')}. Name a transcript with --transcript FILE, or set CLAUDE_CONFIG_DIR (Claude Code) or CODEX_HOME (Codex CLI) when the agent keeps its sessions elsewhere.`,
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
  else io.stdout(out.map(usageLine).join('\n'));
  return 0;
}
