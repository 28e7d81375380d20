/**
 * What a file event of a workspace folder means for git's facts, besides the state files' own
 * watchers (../watch.ts): one of the files git's answer rests on (core/git/watched.ts), work in the
 * work tree (the changed paths `fresh`, `work-explained` and S3's `debt` read), or neither. vscode-free.
 */
import * as path from 'node:path';
import { isInside } from '../../core/files/atomic';
import type { GitWatch } from '../../core/git/watched';
import { isToolFile } from '../../core/model/workspace';
import { globRe } from '../../core/systems/facts';

/** Quiet after a git file's change before the folder is read again (ms): a commit writes its files within milliseconds. */
export const GIT_QUIET_MS = 200;
/** A burst of git writes (a rebase) reads the folder at the latest this long after its first change, and at most once in this long (ms). */
export const GIT_MAX_WAIT_MS = 1500;
/** Quiet after a work file's change before the folder is read again (ms): longer than an editor's auto save delay (1 s). */
export const WORK_QUIET_MS = 1500;
/** Work files saved without pause read the folder at the latest this long after the first save, and at most once in this long (ms). */
export const WORK_MAX_WAIT_MS = 6000;

export type GitEventKind = 'git' | 'work' | 'none';

export interface GitEventContext {
  /** The workspace folder (absolute). */
  root: string;
  /** Every watched git file, absolute (`gitFilesOf`). */
  gitFiles: ReadonlySet<string>;
  /** The folders that are git's own (the git dir, the common dir): what is written there is no work. */
  gitDirs: readonly string[];
  /** A state file or a checkpoint marker (relative, `/`-separated): its own watchers read it again. */
  isState: (rel: string) => boolean;
}

/** Every file the watches name, absolute. */
export function gitFilesOf(watches: readonly GitWatch[]): Set<string> {
  return new Set(watches.flatMap((w) => w.names.map((n) => path.join(w.dir, n))));
}

/**
 * The tool's own passing files beside the file it writes: an atomic write's temp file
 * (`.<name>.<pid>.<hex>.tmp`, renamed over the file) and a write lock (`.<name>.session-ledger.lock`).
 * The write itself is the event that counts.
 */
const OWN_PASSING = /^\..+\.(?:\d+\.[0-9a-f]{8}\.tmp|session-ledger\.lock)$/;

/**
 * The kind of an event at `abs`: 'git' for a watched git file (wherever it lies); 'none' for a path in
 * a git folder (a `.git` of the folder or of a nested repository, the git dir or the common dir: objects,
 * logs, locks), outside the folder, the tool's own files (its passing temp and lock files too) and the
 * state files; else 'work'.
 */
export function gitEventKind(abs: string, ctx: GitEventContext): GitEventKind {
  const p = path.resolve(abs);
  if (ctx.gitFiles.has(p)) return 'git';
  if (ctx.gitDirs.some((d) => isInside(p, d))) return 'none';
  const rel = path.relative(ctx.root, p);
  if (!rel || !isInside(p, ctx.root)) return 'none';
  const parts = rel.split(path.sep);
  if (parts.includes('.git')) return 'none';
  const r = parts.join('/');
  return isToolFile(r) || OWN_PASSING.test(parts[parts.length - 1]) || ctx.isState(r) ? 'none' : 'work';
}

/** A test for the state files: a path the watched globs name, or one of the documents a report read. */
export function stateTest(globs: readonly string[], docs: Iterable<string>): (rel: string) => boolean {
  const res = globs.map(globRe);
  const known = new Set(docs);
  return (rel) => known.has(rel) || res.some((re) => re.test(rel));
}

/** A path's folders, each ending with `/` (`a/b/c.ts`: `a/`, `a/b/`). */
function foldersOf(rel: string): string[] {
  const parts = rel.split('/');
  return parts.slice(0, -1).map((_, i) => `${parts.slice(0, i + 1).join('/')}/`);
}

/** The most paths `IgnoredPaths` remembers: past it, it starts again from nothing. */
export const IGNORED_PATHS_MAX = 10_000;

/**
 * What git ignores among a folder's work files, as far as git was asked (`ignoredByGit`): a file it
 * ignores, a folder it ignores (every path below one is ignored: git never looks inside an ignored
 * folder, and no pattern takes a file below it back), a file or folder it does not. A burst of work
 * events only in ignored files (a build's output, a log) changes nothing `git status` says, so the
 * folder is not read again for it. Forgotten whole when what git ignores may have changed (`clear`: a
 * `.gitignore` saved, the index or HEAD changed).
 */
export class IgnoredPaths {
  private readonly ignored = new Set<string>();
  private readonly kept = new Set<string>();

  clear(): void {
    this.ignored.clear();
    this.kept.clear();
  }

  /** `rel` is ignored by what is known: the file itself, or a folder above it. */
  private known(rel: string): boolean {
    return this.ignored.has(rel) || foldersOf(rel).some((f) => this.ignored.has(f));
  }

  /**
   * What git must be asked so that `allIgnored(rels)` can answer: each path not known yet, with its
   * folders not known yet (an ignored folder answers for everything below it from then on). Null when
   * one of `rels` is known to be kept: the folder is read again whatever git says of the others.
   */
  questions(rels: readonly string[]): string[] | null {
    const ask = new Set<string>();
    for (const rel of rels) {
      if (this.known(rel)) continue;
      if (this.kept.has(rel)) return null;
      for (const f of foldersOf(rel)) if (!this.kept.has(f)) ask.add(f);
      ask.add(rel);
    }
    return [...ask];
  }

  /** git's answer: of `asked`, the ones in `ignored` are ignored, the others kept. */
  learn(asked: readonly string[], ignored: ReadonlySet<string>): void {
    // Bounded: a log that takes a new name each day would otherwise grow the sets for as long as the window is open.
    if (this.ignored.size + this.kept.size + asked.length > IGNORED_PATHS_MAX) this.clear();
    for (const a of asked) (ignored.has(a) ? this.ignored : this.kept).add(a);
  }

  /** Every one of `rels` is ignored by what is known. */
  allIgnored(rels: readonly string[]): boolean {
    return rels.every((r) => this.known(r));
  }
}

/** An ignore file: saving one may change what git ignores (and what `git status` lists). */
export const isIgnoreFile = (rel: string): boolean => rel === '.gitignore' || rel.endsWith('/.gitignore');
