/**
 * Files a write by design (a settings file, `.gitignore`, a state file, a Log archive, a starter) never
 * lands on through a link from inside the workspace:
 * - git's own files: anything in a `.git` folder. A state file or `.gitignore` committed as a link to
 *   `.git/config` would otherwise turn text the repository wrote into git configuration, which the
 *   user's next `git status` runs;
 * - the tool's own files, which are never written through a link themselves (the hook log, the
 *   session, install, reminder and status line records, the hook scripts, markers, write locks);
 * - the files each system's facts say the tool writes only as themselves (`writtenAsThemselves`).
 * A unit test (link-targets) checks each writer's path against this list.
 */
import { isHookScriptRel } from '../hooks/files';
import { writtenAsThemselves } from '../systems/facts';

/** Why a write must not land on `rel` (relative to the real workspace root, either separator), or null when it may. */
export function protectedWriteTarget(rel: string): string | null {
  // Compared case-insensitively: on a case-insensitive disk `.GIT/config` is git's config too.
  const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  const lower = parts.map((p) => p.toLowerCase());
  if (lower.includes('.git')) return "git's own files";
  const p = lower.join('/');
  const base = lower[lower.length - 1] ?? '';
  if (
    p.startsWith('.claude/session-ledger/') ||
    p === '.claude/log/session-ledger-hook.log' ||
    p === '.claude/log/session-ledger-hook.log.1' ||
    p.startsWith('.claude/.checkpoint-ready') ||
    isHookScriptRel(p) ||
    base.endsWith('.session-ledger.lock') ||
    writtenAsThemselves().some((re) => re.test(parts.join('/')) || re.test(p))
  )
    return 'a file Session Ledger writes only under its own name';
  return null;
}
