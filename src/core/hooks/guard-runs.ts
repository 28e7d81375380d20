/**
 * Whether a client runs the Session Ledger PreCompact guard in a folder: installed in a settings file it
 * reads (the folder's or the user's), and not kept from running by a setting of its own (Claude Code's
 * `disableAllHooks`, `allowManagedHooksOnly`: core `claudeStops`). Without it nothing stops /compact, with
 * or without a checkpoint's marker: what a checkpoint says of its marker rests on this, and the status
 * item's and `status`'s guard line (./guard-state) start from it. Never throws: a missing, unreadable or
 * malformed file counts as "not installed".
 */
import { claudeHome, codexHome } from '../context/discovery';
import { claudeStops, type ClaudeStop, type ClaudeStops } from './client-settings';
import { guardInstalledFor, holdsHook, type HookClient, type HookEvent } from './installed';

/** Where each client keeps its own settings (default: `$CLAUDE_CONFIG_DIR`/`$CODEX_HOME` of `env`, else the home folder's). */
export interface ClientHomes {
  env?: NodeJS.ProcessEnv;
  claudeHome?: string;
  codexHome?: string;
}

/** The guard as `agent` has it in a folder. */
export interface GuardSetup {
  /** Installed in a settings file the client reads. */
  installed: boolean;
  /** Claude Code: what of its own settings keeps it from running the project's hooks or showing its status line (null for Codex, or unreadable). */
  claude: ClaudeStops | null;
  /** The installed guard does not run: the setting of Claude Code's own that keeps it from running it. */
  stopped: ClaudeStop | null;
}

/**
 * The guard as `agent` has it in `root`: installed, and what keeps an installed one from running
 * (`event`: our hook of another event, as SessionStart's resume hook).
 */
export async function guardSetup(
  root: string,
  agent: HookClient,
  o: ClientHomes = {},
  event: HookEvent = 'PreCompact',
): Promise<GuardSetup> {
  const env = o.env ?? process.env;
  const homes = { env, claudeHome: o.claudeHome, codexHome: o.codexHome };
  const home = agent === 'codex' ? codexHome(homes) : claudeHome(homes);
  const installed = await guardInstalledFor(agent, root, home, event);
  const claude =
    agent === 'claude'
      ? await claudeStops(root, { env, claudeHome: home, holdsGuard: holdsHook(event) }).catch(() => null)
      : null;
  return { installed, claude, stopped: installed ? (claude?.hooks ?? null) : null };
}

/**
 * Whether the guard stops a manual /compact in `root` for a session of `agent` (when it is not known,
 * either client's guard counts): installed there, and for Claude Code not kept from running by its settings.
 * With `event` SessionStart: whether the resume hook hands the resume block to the agent after /clear.
 */
export async function guardRuns(
  root: string,
  opts: ClientHomes & { agent?: HookClient; event?: HookEvent } = {},
): Promise<boolean> {
  const runsFor = async (agent: HookClient): Promise<boolean> => {
    const s = await guardSetup(root, agent, opts, opts.event);
    return s.installed && !s.stopped;
  };
  if (opts.agent) return runsFor(opts.agent);
  return (await runsFor('claude')) || (await runsFor('codex'));
}
