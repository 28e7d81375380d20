/** Git runs counted: a logging `git` first on PATH for one test, which runs the real git. */
import type { TestContext } from 'node:test';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { workspace, write } from './helpers';

export const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/**
 * Put a logging `git` first on PATH for this test; returns the runs so far, each named by what it
 * asks: `config` (one config file parsed), `where` (where git finds the repository), `listing` (the
 * whole config as git reads it there), `status`, or `other`.
 */
export function countGit(t: TestContext): () => string[] {
  const dir = workspace({}, 'sl-gitlog-');
  const log = path.join(dir, 'runs.log');
  writeFileSync(log, '');
  const shim = write(dir, 'bin/git', `#!/bin/sh\necho "$*" >> '${log}'\nexec '${REAL_GIT}' "$@"\n`);
  chmodSync(shim, 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${path.dirname(shim)}${path.delimiter}${before}`;
  t.after(() => (process.env.PATH = before));
  // git's discovery and the config listing start together: either may log first, and both count as 'where', 'listing'.
  const inOrder = (runs: string[]): string[] =>
    runs.map((r, i) =>
      r === 'listing' && runs[i + 1] === 'where' ? 'where' : r === 'where' && runs[i - 1] === 'listing' ? 'listing' : r,
    );
  return () =>
    inOrder(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) =>
          /(^| )config --file /.test(l)
            ? 'config'
            : /(^| )rev-parse --absolute-git-dir /.test(l)
              ? 'where'
              : /(^| )config --list --includes /.test(l)
                ? 'listing'
                : /(^| )status /.test(l)
                  ? 'status'
                  : 'other',
        ),
    );
}
