/**
 * The language a command prints in, with the program its messages name said as the user ran it: the
 * locale's words (./bundle's `cliLanguage`), every command it names run as this one was (`programOf`).
 */
import * as path from 'node:path';
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
 * names it (`cliCommand`: by its absolute path, `~/…` inside the home folder, so it runs from any folder),
 * anything else (the npm package's `session-ledger`) as `session-ledger`.
 */
export function programOf(root: string, io: Pick<Io, 'script' | 'cwd' | 'env'>): string {
  if (!io.script) return PROGRAM;
  const abs = path.resolve(io.cwd, io.script);
  const hook = [SCRIPT_REL, CODEX_HOOK_SCRIPT_REL].some((rel) => abs.endsWith(path.join(path.sep, rel)));
  return hook ? cliCommand(root, { script: io.script, cwd: io.cwd, env: io.env }) : PROGRAM;
}
