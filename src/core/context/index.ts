/**
 * The context meter: how full the agent's context window is, from Claude Code and Codex
 * CLI transcripts (read from the tail, then only appended bytes) or from Claude Code's own
 * statusLine figure when a relay recorded it.
 */
export {
  claudeHome,
  claudeProjectDirName,
  codexHome,
  encodeClaudeProjectDir,
  findClaudeSession,
  findCodexSession,
  findSessions,
  type MeterOptions,
  type SessionRef,
} from './discovery';
export { ContextFollower, DEFAULT_MAX_SCAN, type FollowerOptions } from './follower';
export {
  detectAgent,
  measure,
  measureDetailed,
  refForTranscript,
  type MeasureOptions,
  type MeasureResult,
} from './measure';
export {
  DEFAULT_THRESHOLDS,
  levelOf,
  thresholdProfile,
  type Level,
  type ThresholdProfile,
  type ThresholdSettings,
} from './thresholds';
export {
  feedPath,
  figureOfStatusInput,
  parseFeed,
  parseFeedInfo,
  safeId,
  windowOfStatusInput,
  type FeedFigure,
  type FeedInfo,
  type FeedRecord,
} from './feed';
export {
  claudeWindow,
  isOneMillionModel,
  modelWindow,
  percentOf,
  CLAUDE_WINDOW,
  CLAUDE_WINDOW_1M,
  type WindowSource,
} from './window';
export type { ContextUsage } from '../model/model';
export { detectSystems, detectedThresholds, switchedOn } from './systems';
