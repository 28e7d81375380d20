/**
 * Typed access to the `sessionLedger.*` settings: the one place that knows their names and
 * defaults. Everything else asks `readSettings()` and never touches `getConfiguration` itself.
 */
import * as vscode from 'vscode';
import { SYSTEM_IDS, type SystemId } from '../core/model/model';

export const SECTION = 'sessionLedger';

export type ProfileSetting = 'auto' | SystemId;

export interface LedgerSettings {
  /** Which system's thresholds colour the meter; `auto` follows the detected system. */
  profile: ProfileSetting;
  /** Overrides of the profile's thresholds (percent), or null. */
  propose: number | null;
  urgent: number | null;
  /** Context window override in tokens, or null. */
  contextWindow: number | null;
  /** Extra home-file paths per system, relative to the folder. */
  extraStatePaths: Partial<Record<SystemId, string[]>>;
  /** Marker max age in minutes, or null (env or the core default). */
  markerMaxAgeMinutes: number | null;
  /** Claude Code home, or undefined (env / ~/.claude). */
  claudeHome: string | undefined;
  /** Codex home, or undefined (env / ~/.codex). */
  codexHome: string | undefined;
  /** What "Ask the agent to checkpoint" types, per system (overrides the seed's trigger). */
  checkpointTriggers: Partial<Record<SystemId, string>>;
  /** Findings also in the Problems panel (default true). */
  diagnosticsEnabled: boolean;
  /** Sessions that wrote within this many minutes make "which session?" a question; null: env or 30. */
  sessionWindowMinutes: number | null;
}

const SYSTEM_KEYS = SYSTEM_IDS;

function num(v: unknown, min: number, max: number): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function perSystem<T>(v: unknown, ok: (x: unknown) => x is T): Partial<Record<SystemId, T>> {
  const out: Partial<Record<SystemId, T>> = {};
  if (v && typeof v === 'object') {
    for (const k of SYSTEM_KEYS) {
      const x = (v as Record<string, unknown>)[k];
      if (ok(x)) out[k] = x;
    }
  }
  return out;
}

const isStringArray = (x: unknown): x is string[] => Array.isArray(x) && x.every((e) => typeof e === 'string');
const isString = (x: unknown): x is string => typeof x === 'string' && x.length > 0;

/** The settings for a folder (or the window when no scope is given). */
export function readSettings(scope?: vscode.ConfigurationScope): LedgerSettings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const profile = c.get<string>('thresholds.profile', 'auto');
  return {
    profile: (['auto', ...SYSTEM_KEYS] as string[]).includes(profile) ? (profile as ProfileSetting) : 'auto',
    propose: num(c.get('thresholds.propose'), 1, 100),
    urgent: num(c.get('thresholds.urgent'), 1, 100),
    contextWindow: num(c.get('contextWindow'), 1000, 100_000_000),
    extraStatePaths: perSystem(c.get('extraStatePaths'), isStringArray),
    markerMaxAgeMinutes: num(c.get('markerMaxAgeMinutes'), 1, 1_000_000),
    claudeHome: str(c.get('claudeHome')),
    codexHome: str(c.get('codexHome')),
    checkpointTriggers: perSystem(c.get('checkpointTriggers'), isString),
    diagnosticsEnabled: c.get<unknown>('diagnostics.enabled', true) !== false,
    sessionWindowMinutes: num(c.get('sessionWindowMinutes'), 1, 1_000_000),
  };
}

/** Fires when any `sessionLedger.*` setting changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}
