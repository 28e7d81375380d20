/**
 * Whether a client runs the Session Ledger PreCompact guard in a folder: installed in a settings file it
 * reads (the folder's or the user's), and not kept from running by a setting of its own (Claude Code's
 * `disableAllHooks`, `allowManagedHooksOnly`: core `claudeStops`). Without it nothing stops /compact, with
 * or without a checkpoint's marker: what a checkpoint says of its marker rests on this. Never throws: a
 * missing, unreadable or malformed file counts as "not installed".
 */
import { claudeHome, codexHome } from '../context/discovery';
import { claudeStops } from './client-settings';
import { claudeGuardInstalled, codexGuardInstalled, holdsGuard } from './installed';

/**
 * Whether the guard stops a manual /compact in `root` for a session of `agent` (when it is not known,
 * either client's guard counts): installed there, and for Claude Code not kept from running by its settings.
 */
export async function guardRuns(
  root: string,
  opts: { agent?: 'claude' | 'codex'; env?: NodeJS.ProcessEnv; claudeHome?: string; codexHome?: string } = {},
): Promise<boolean> {
  const env = opts.env ?? process.env;
  const claudeDir = claudeHome({ env, claudeHome: opts.claudeHome });
  const runsFor = async (agent: 'claude' | 'codex'): Promise<boolean> => {
    if (agent === 'codex') return codexGuardInstalled(root, codexHome({ env, codexHome: opts.codexHome }));
    if (!(await claudeGuardInstalled(root, claudeDir))) return false;
    const stops = await claudeStops(root, { env, claudeHome: claudeDir, holdsGuard }).catch(() => null);
    return !stops?.hooks;
  };
  if (opts.agent) return runsFor(opts.agent);
  return (await runsFor('claude')) || (await runsFor('codex'));
}
