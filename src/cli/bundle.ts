/**
 * The language the command-line tool prints its words in (`check`, `status`, `checkpoint` and
 * `context`, the manuals, refusals, usage errors and framing of every command), decided as POSIX tools decide
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
import { ENGLISH, languageOf, t, type Language } from '../core/model/messages';
import type { Io } from './io';
import { hookLanguage, localeLang, type Lang } from './locale';

/** The most of a bundle read (each is about 180-200 KB). */
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
  // A command asks more than once (its root, then its words): the bundle is read once per process.
  return (languages[file] ??= readLanguage(file));
}

/** The languages read, by their bundle's path. */
const languages: Record<string, Promise<Language>> = {};

async function readLanguage(file: string): Promise<Language> {
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

/**
 * The installed hook script (`dir`: the running script's folder, no package's `dist/`) has no bundle beside it, so
 * under a Japanese or Korean locale its commands print in English (`lang`): it says so before its first line,
 * once, on stderr, in the locale's language (its own words, `hookLanguage`), with where the same command prints in
 * that language. A package whose bundle cannot be read says nothing of it.
 */
export function sayEnglish(io: Pick<Io, 'env' | 'words' | 'stderr'>, lang: Language, dir: string = __dirname): void {
  const asked = localeLang(io.env);
  if (lang !== ENGLISH || !io.words || !asked || bundlePath(asked, dir) !== null || toldEnglish) return;
  toldEnglish = true;
  io.stderr(
    hookLanguage(io.env, io.words).msg(
      t(
        'This is in English: the hook script a project holds carries no translations of these messages. session-ledger installed as the command-line tool, and the Session Ledger extension in VS Code, say them in your language.',
      ),
    ),
  );
}

/** Whether the hook script said it prints in English (once a process). */
let toldEnglish = false;
