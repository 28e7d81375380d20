/**
 * A read taken while an agent rewrites a state file. An agent (or an editor) that rewrites a file in
 * place truncates it and writes it in pieces: a read between two pieces is consistent (nothing moved
 * while it was read) and still only half the file. A read that does not parse while the file is
 * changing is therefore not believed at once:
 *
 * - A system read before whose files now do not parse (the system is gone, a file of it is "not read
 *   as" it, or a document of it cannot be read or parsed) is suspect when one of those files was
 *   modified less than `SETTLE_MS` ago: it is still being written.
 * - A suspect read is read again after `RETRY_MS`. Still suspect, the system's last good report is
 *   kept (marked `updating`) and nothing found in the unparsed read is published; the caller reads
 *   again once the file has been quiet for `SETTLE_MS` (`recheckAt`).
 * - A file that changed while it was read (its size or times moved between a look before the read and
 *   one after it) is as suspect, however long ago that was: a host too busy to look within `SETTLE_MS`
 *   still does not take a read that overlapped a write for the file.
 * - A file that stays unreadable after it stopped changing is reported as it is.
 * - A read that parses is as suspect when it newly fails a check the system passed before (a file
 *   cut short between two pieces still parses: its `Now ▶` or its Log is simply gone) and one of
 *   the system's files was modified less than `SETTLE_MS` ago. Once the files are quiet, what the
 *   read says is shown, worse or not.
 */
import { statOrNullSync } from '../files/fsread';
import { overallLabel, type SystemId, type SystemReport, type WorkspaceReport } from '../model/model';
import { FACTS, globRe } from '../systems/facts';
import type { Stats } from 'node:fs';
import * as path from 'node:path';

/** A file modified less than this long ago (ms) is taken to be still being written. */
export const SETTLE_MS = 1000;
/** How long to wait before the second read of a file that did not parse while it changed (ms). */
export const RETRY_MS = 150;
/** Findings that say a document was not read as text or not parsed. */
const UNREAD_FINDINGS = new Set(['readable', 'parse']);

/** Systems whose read did not parse while their files changed, and when those files will have been quiet for `SETTLE_MS`. */
export interface Unsettled {
  systems: Set<SystemId>;
  /** When (ms, the clock of `now`) to read again. */
  recheckAt: number;
}

/** The relative paths, per system, whose read in `next` did not parse (and that `prev` had read, for a system gone). */
export function unparsedPaths(prev: WorkspaceReport | undefined, next: WorkspaceReport): Map<SystemId, Set<string>> {
  const out = new Map<SystemId, Set<string>>();
  const add = (id: SystemId, rel: string) => {
    let s = out.get(id);
    if (!s) out.set(id, (s = new Set()));
    s.add(rel);
  };
  for (const s of next.systems) {
    for (const d of s.docs) if (d.findings.some((f) => UNREAD_FINDINGS.has(f.id))) add(s.id, d.relPath);
  }
  for (const n of next.notRead ?? []) add(n.system, n.path);
  const now = new Set(next.systems.map((s) => s.id));
  for (const s of prev?.systems ?? []) {
    if (now.has(s.id)) continue;
    for (const rel of new Set([s.home, ...s.docs.map((d) => d.relPath)])) add(s.id, rel);
  }
  return out;
}

/** Systems of `next` that fail a check (by id and file) they did not fail in `prev`, with every file of theirs. */
export function newlyFailing(prev: WorkspaceReport | undefined, next: WorkspaceReport): Map<SystemId, Set<string>> {
  const out = new Map<SystemId, Set<string>>();
  const failing = (s: SystemReport) =>
    new Set(s.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}\0${c.path ?? ''}`));
  for (const s of next.systems) {
    const before = prev?.systems.find((p) => p.id === s.id);
    if (!before) continue;
    const was = failing(before);
    if ([...failing(s)].some((k) => !was.has(k))) out.set(s.id, new Set([s.home, ...s.docs.map((d) => d.relPath)]));
  }
  return out;
}

/** A file's size and times, or "none": what moves when it is written. */
function fileState(st: Stats | null): string {
  return st ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}` : 'none';
}

/** Every file of `prev`'s systems (home and documents) as it stands now, by relative path: taken before a read. */
export function filesBefore(root: string, prev: WorkspaceReport | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of prev?.systems ?? [])
    for (const rel of [s.home, ...s.docs.map((d) => d.relPath)])
      if (!out.has(rel)) out.set(rel, fileState(statOrNullSync(path.resolve(root, rel))));
  return out;
}

/**
 * The systems of `next` whose files did not parse, or newly fail a check, while they were being
 * written (modified within `SETTLE_MS` of `now`, or changed since `before`, taken before the read),
 * or null when every read can be believed.
 */
export function unsettled(
  root: string,
  prev: WorkspaceReport | undefined,
  next: WorkspaceReport,
  now = Date.now(),
  before?: ReadonlyMap<string, string>,
): Unsettled | null {
  const systems = new Set<SystemId>();
  let recheckAt = 0;
  const suspect = unparsedPaths(prev, next);
  for (const [id, rels] of newlyFailing(prev, next)) if (!suspect.has(id)) suspect.set(id, rels);
  for (const [id, rels] of suspect) {
    for (const rel of rels) {
      const st = statOrNullSync(path.resolve(root, rel));
      // A file gone is what it is.
      if (!st) continue;
      const was = before?.get(rel);
      const moved = was !== undefined && was !== fileState(st);
      // A file last written long ago (or far in the future), and not since the read began, is what it is.
      if (!moved && (st.mtimeMs <= now - SETTLE_MS || st.mtimeMs > now + SETTLE_MS)) continue;
      systems.add(id);
      // Once quiet for SETTLE_MS (at once, for a file written during the read and quiet since).
      recheckAt = Math.max(recheckAt, st.mtimeMs + SETTLE_MS);
    }
  }
  return systems.size ? { systems, recheckAt } : null;
}

/**
 * `next` with the systems in `held` shown as they were in `prev` (marked `updating`) and nothing
 * from their unparsed read: no "not read" entry and no finding of theirs. A held system that `prev`
 * did not have is left out until it reads.
 */
export function holdLastGood(
  prev: WorkspaceReport | undefined,
  next: WorkspaceReport,
  held: ReadonlySet<SystemId>,
): WorkspaceReport {
  const systems: SystemReport[] = next.systems.filter((s) => !held.has(s.id));
  for (const s of prev?.systems ?? []) if (held.has(s.id)) systems.push(s.updating ? s : { ...s, updating: true });
  return withSystems(
    next,
    systems,
    (next.notRead ?? []).filter((n) => !held.has(n.system)),
  );
}

/**
 * `next`, a read of only the systems `reread`, merged into `prev`: those systems (and their "not
 * read" entries) replaced, every other system as `prev` had it.
 */
export function mergeReread(
  prev: WorkspaceReport,
  next: WorkspaceReport,
  reread: ReadonlySet<SystemId>,
): WorkspaceReport {
  const systems = [...prev.systems.filter((s) => !reread.has(s.id)), ...next.systems];
  return withSystems(next, systems, [
    ...(prev.notRead ?? []).filter((n) => !reread.has(n.system)),
    ...(next.notRead ?? []),
  ]);
}

/** `base` with these systems (in id order, the overall label theirs) and these "not read" entries (none: no field). */
function withSystems(
  base: WorkspaceReport,
  systems: SystemReport[],
  notRead: NonNullable<WorkspaceReport['notRead']>,
): WorkspaceReport {
  systems.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: WorkspaceReport = {
    ...base,
    systems,
    label: overallLabel(systems),
  };
  if (notRead.length) out.notRead = notRead;
  else delete out.notRead;
  return out;
}

export interface SettledRead {
  /** What to show: the read, with the systems still being written kept as they were (`updating`). */
  report: WorkspaceReport;
  /** When to read again (ms, `Date.now()` clock): set when a system was held. */
  recheckAt?: number;
}

/**
 * Read with `read()` and believe it only where it parses or its files stopped changing: a suspect
 * read is read once more after `retryMs`, and what is still suspect is held at `prev`'s report.
 * `now` is the clock the files' times are compared with.
 */
export async function settledRead(
  root: string,
  prev: WorkspaceReport | undefined,
  read: () => Promise<WorkspaceReport>,
  retryMs = RETRY_MS,
  now: () => number = Date.now,
): Promise<SettledRead> {
  let before = filesBefore(root, prev);
  let next = await read();
  let u = unsettled(root, prev, next, now(), before);
  if (!u) return { report: next };
  await new Promise((r) => setTimeout(r, retryMs));
  before = filesBefore(root, prev);
  next = await read();
  u = unsettled(root, prev, next, now(), before);
  if (!u) return { report: next };
  return { report: holdLastGood(prev, next, u.systems), recheckAt: u.recheckAt };
}

/**
 * The systems a change of the files `changed` (relative paths) touches: a document of the system in
 * `prev`, one of its presence globs, or one of its extra paths. Undefined when some path is claimed
 * by no system (a config or marker file: every system is read again).
 */
export function systemsOfChange(
  prev: WorkspaceReport,
  changed: readonly string[],
  extraPaths: Partial<Record<SystemId, string[]>> = {},
): Set<SystemId> | undefined {
  const ids = new Set<SystemId>();
  for (const rel of changed) {
    let claimed = false;
    for (const id of Object.keys(FACTS) as SystemId[]) {
      const sys = prev.systems.find((s) => s.id === id);
      const globs = [...FACTS[id].presence, ...(extraPaths[id] ?? [])];
      if (sys?.home === rel || sys?.docs.some((d) => d.relPath === rel) || globs.some((g) => globRe(g).test(rel))) {
        ids.add(id);
        claimed = true;
      }
    }
    if (!claimed) return undefined;
  }
  return ids;
}
