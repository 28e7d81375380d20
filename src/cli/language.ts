/**
 * The language `check`, `status` and `checkpoint` print their words in, decided as POSIX tools decide
 * it: the first non-empty of LC_ALL, LC_MESSAGES and LANG names the locale; `ja…` is Japanese and
 * `ko…` Korean (without a codeset or with UTF-8, the one the tool writes), anything else (C, POSIX,
 * en_US.UTF-8, ja_JP.eucJP …) English. The words are the extension's own translations, its l10n
 * bundle of that language, so the CLI and the extension say the same; `--json` stays English.
 *
 * The bundle is read only for Japanese or Korean (the status line and the hooks never ask: the guard's
 * block and the reminder take their words from the hook script itself, ./locale), and only where the
 * package has it: `l10n/` beside the `dist/` folder this script runs from (the npm package, the clone,
 * the .vsix). A script anywhere else reads none: the hook script a repository holds in
 * `.claude/hooks/` has no bundle beside it, and a repository's files never word what the tool says.
 * Whatever cannot be read or parsed leaves the tool in English, without a word about it.
 */
import * as path from 'node:path';
import { readTextFile } from '../core/files/fsread';
import { CODEX_HOOK_SCRIPT_REL, SCRIPT_REL } from '../core/hooks/files';
import { cliCommand } from '../core/hooks/guard';
import { ENGLISH, invokedAs, languageOf, PROGRAM, type Language } from '../core/model/messages';
import type { Io } from './io';
import { localeLang, type Lang } from './locale';

/** The most of a bundle read (each is about 130 KB). */
const BUNDLE_MAX_BYTES = 2 * 1024 * 1024;

/** Where the package keeps the bundle of `lang`, for a script in `dir`; null when `dir` is no package's `dist/`. */
export function bundlePath(lang: Lang, dir: string): string | null {
  return path.basename(dir) === 'dist' ? path.join(dir, '..', 'l10n', `bundle.l10n.${lang}.json`) : null;
}

/** The language the CLI prints in for `env`: its bundle's words, else English. `dir` is the running script's folder. */
export async function cliLanguage(env: NodeJS.ProcessEnv, dir: string = __dirname): Promise<Language> {
  const lang = localeLang(env);
  const file = lang ? bundlePath(lang, dir) : null;
  if (!file) return ENGLISH;
  const read = await readTextFile(file, BUNDLE_MAX_BYTES);
  if (!read.ok || read.truncated) return ENGLISH;
  try {
    const table: unknown = JSON.parse(read.text);
    return table && typeof table === 'object' && !Array.isArray(table)
      ? languageOf(table as Record<string, unknown>)
      : ENGLISH;
  } catch {
    return ENGLISH;
  }
}

/** The language a command on `root` prints in: the locale's (`cliLanguage`), every command it names run as this one was (`programOf`). */
export async function commandLanguage(io: Io, root: string): Promise<Language> {
  return invokedAs(await cliLanguage(io.env), programOf(root, io));
}

/**
 * How the user ran this command, as the commands it prints name the program: an installed hook script
 * (`node .claude/hooks/session-ledger.cjs check`, where no `session-ledger` is on PATH) as the guard
 * names it (`cliCommand`: by its path relative to `root` when run from there, else by its absolute
 * path), anything else (the npm package's `session-ledger`) as `session-ledger`.
 */
export function programOf(root: string, io: Pick<Io, 'script' | 'cwd'>): string {
  if (!io.script) return PROGRAM;
  const abs = path.resolve(io.cwd, io.script);
  const hook = [SCRIPT_REL, CODEX_HOOK_SCRIPT_REL].some((rel) => abs.endsWith(path.join(path.sep, rel)));
  return hook ? cliCommand(root, { script: io.script, cwd: io.cwd }) : PROGRAM;
}
