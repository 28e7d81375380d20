/**
 * What the SessionStart hook records about the running Claude Code session:
 * `<root>/.claude/session-ledger/session.json` = `{ session_id, transcript_path, source, cwd, at }`.
 * `session-ledger checkpoint` falls back to it when no transcript names the session.
 */
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from './atomic';
import { readTextFile } from './fsread';
import { notAProject, str } from './hook-io';
import { isSessionId } from './marker';

export const SESSION_RECORD_REL = '.claude/session-ledger/session.json';

export interface SessionRecord {
  session_id: string | null;
  transcript_path: string | null;
  source: string | null;
  cwd: string | null;
  /** ISO time the hook ran. */
  at: string;
}

export async function writeSessionRecord(root: string, rec: SessionRecord): Promise<string> {
  const why = notAProject(root);
  if (why) throw new WriteRefused(`${why}: the session is not recorded`, 'outside');
  const file = path.join(root, SESSION_RECORD_REL);
  await writeAtomic(file, `${JSON.stringify(rec, null, 2)}\n`, { root });
  return file;
}

/** The recorded session, or null when there is none or it cannot be read. Never throws. */
export async function readSessionRecord(root: string): Promise<SessionRecord | null> {
  const f = await readTextFile(path.join(root, SESSION_RECORD_REL), 64 * 1024);
  if (!f.ok) return null;
  try {
    const v = JSON.parse(f.text) as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const id = str(v.session_id);
    return {
      session_id: isSessionId(id) ? id : null,
      transcript_path: str(v.transcript_path),
      source: str(v.source),
      cwd: str(v.cwd),
      at: str(v.at) ?? new Date(f.mtime).toISOString(),
    };
  } catch {
    return null;
  }
}
