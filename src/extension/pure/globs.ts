/** The globs the extension watches, and how a glob becomes a directory watch. vscode-free. */
import { globRe, presenceGlobs } from '../../core/systems/facts';

/** Every system's presence globs (the core's facts table), then `extra`, deduplicated. */
export function watchGlobs(extra: readonly string[] = []): string[] {
  return [...new Set([...presenceGlobs(), ...extra])];
}

/** A watch glob split into its literal folder and a test for the file name (for a non-recursive directory watch). */

export interface DirWatch {
  /** Folder relative to the root, `/`-separated ('' = the root). */
  dir: string;
  /** Matches file names in that folder. */
  name: RegExp;
}

/** `.claude/session-ledger*.md` → `{ dir: '.claude', name: /^session-ledger[^/]*\.md$/ }`; null when the folder part has wildcards or braces. */
export function dirWatchOf(glob: string): DirWatch | null {
  const g = glob.replace(/^\.\//, '');
  if (/[{}[\]]/.test(g)) return null;
  const i = g.lastIndexOf('/');
  const dir = i < 0 ? '' : g.slice(0, i);
  const name = i < 0 ? g : g.slice(i + 1);
  if (/[*?]/.test(dir) || !name || name === '**') return null;
  return { dir, name: globRe(name) };
}
