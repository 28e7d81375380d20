/**
 * The language a command prints in, with the program its messages name said as the user ran it: the
 * locale's words (./bundle's `cliLanguage`), every command it names run as this one was (`programOf`).
 */
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { absolutePath } from '../core/git/git';
import { CODEX_HOOK_SCRIPT_REL, SCRIPT_REL } from '../core/hooks/files';
import { cliCommand } from '../core/hooks/guard';
import { invokedAs, PROGRAM, type Language } from '../core/model/messages';
import type { Io } from './io';
import { cliLanguage, sayEnglish } from './bundle';

/** The language a command on `root` prints in: the locale's (`cliLanguage`), every command it names run as this one was (`programOf`). */
export async function commandLanguage(io: Io, root: string): Promise<Language> {
  const lang = await cliLanguage(io.env);
  sayEnglish(io, lang);
  return invokedAs(lang, programOf(root, io));
}

/**
 * How the user ran this command, as the commands it prints name the program: an installed hook script
 * (`node .claude/hooks/session-ledger.cjs check`, where no `session-ledger` is on PATH) as the guard
 * names it (`cliCommand`: by its absolute path, `~/…` inside the home folder, so it runs from any folder);
 * the npm package's script as `session-ledger` when that is the command PATH finds for it (a global
 * install's link, npx's), else the same way as the hook script (`node ~/session-ledger/dist/cli.js`: run
 * from a clone without a global install, `session-ledger` would be "command not found").
 */
export function programOf(root: string, io: Pick<Io, 'script' | 'cwd' | 'env'>): string {
  if (!io.script) return PROGRAM;
  const abs = path.resolve(io.cwd, io.script);
  const hook = [SCRIPT_REL, CODEX_HOOK_SCRIPT_REL].some((rel) => abs.endsWith(path.join(path.sep, rel)));
  return hook || !pathRuns(abs, io.env) ? cliCommand(root, { script: io.script, cwd: io.cwd, env: io.env }) : PROGRAM;
}

/** Whether the `session-ledger` a shell finds first on PATH (`env`'s) is the script `abs`, through its links. */
function pathRuns(abs: string, env: NodeJS.ProcessEnv): boolean {
  // The folders a shell looks in, as git's own lookup takes them (absolute ones only).
  for (const dir of absolutePath(env.PATH)) {
    const onPath = path.join(dir, PROGRAM);
    if (!existsSync(onPath)) continue;
    try {
      return realpathSync(onPath) === realpathSync(abs);
    } catch {
      return false;
    }
  }
  return false;
}
