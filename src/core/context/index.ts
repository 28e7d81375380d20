/**
 * The context meter (SPEC §4): how full the agent's context window is, from Claude Code and Codex
 * CLI transcripts (read from the tail, then only appended bytes) or from Claude Code's own
 * statusLine figure when a relay recorded it.
 */
export {
  claudeHome,
  codexHome,
  encodeClaudeProjectDir,
  findClaudeSession,
  findCodexSession,
  findSessions,
  type MeterOptions,
  type SessionRef,
} from './discovery';
