/**
 * The hook script's transcript part (src/cli/hot.ts loads it from the comment after
 * HOOK_TRANSCRIPT_MARKER): the figure of the one transcript the status line names, for a refresh
 * whose JSON brings no figure of Claude Code's own (at start-up, right after /compact, an older
 * client). It holds only the transcript meter, none of the session discovery, `context` or the
 * reminder (the meter part), so such a refresh compiles about a third as much code.
 */
import { readFilesBlocking } from '../core/context/files';
import { measureNamed } from '../core/context/measure';

/** The status line's figure from a transcript, in its command-line process (blocking reads: nothing else runs). */
export function measure(...args: Parameters<typeof measureNamed>): ReturnType<typeof measureNamed> {
  readFilesBlocking();
  return measureNamed(...args);
}
