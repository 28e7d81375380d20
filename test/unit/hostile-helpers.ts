/** In-process CLI runs for the hostile-input tests (the process boundary is not what they test). */
import { main } from '../../src/cli/main';
import type { Io } from '../../src/cli/io';

export interface InProc {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `session-ledger …args` in this process, with `stdin` and `env` (merged over an empty Claude setup). */
export async function runIn(
  args: string[],
  o: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<InProc> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => (stdout += s.endsWith('\n') ? s : `${s}\n`),
    stderr: (s) => (stderr += s.endsWith('\n') ? s : `${s}\n`),
    stdin: async () => o.stdin ?? '',
    env: { ...process.env, CLAUDE_PROJECT_DIR: '', SESSION_LEDGER_CHECKPOINT_MAX_AGE_MIN: '', ...o.env },
    cwd: o.cwd ?? process.cwd(),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** An S3 state file for a repository under test: the git tests read it and run nothing it names. */
export const HOSTILE_REPO_STATE = `# State

## Handoff

- **Status:** hostile repository
- **Branch / HEAD:** main 0000000
- **Now ▶** read the repository and run nothing from it

## Log

### 2026-11-30 - start
- Done: nothing
`;
