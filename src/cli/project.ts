/**
 * The project a command acts on when `--root` names none. The PreCompact guard reads the markers of the
 * project Claude Code runs in, whatever folder its shell has moved to; so a command run from a subfolder
 * of that project (the shell after a `cd src`, where the guard's block and the user's `!` commands run)
 * acts on the project, not on the subfolder:
 * - the installed hook script run by its path from inside its own project acts on that project;
 * - a folder holding no state file and no hook script of its own, where no Claude Code session was started
 *   (a session started there reads that folder's settings and markers), inside a project whose guard hooks
 *   are installed, acts on that project (the nearest such folder above it, never the home folder or `/`).
 * Anywhere else it is the folder the command runs in, as before. The commands that set a folder up
 * (`hooks`, `init`) act on the folder they run in; `init` run through the installed hook script from a
 * subfolder of its project (the command `check` prints) acts on that project (`setUpRoot`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claudeHome, claudeProjectDirName } from '../core/context/discovery';
import { anyPresent } from '../core/context/systems';
import { CODEX_HOOK_SCRIPT_REL, SCRIPT_REL } from '../core/hooks/files';
import { shellWord } from '../core/files/shell';
import { t } from '../core/model/messages';
import { resolveRoot } from './args';
import { cliLanguage, sayEnglish } from './bundle';
import type { Io } from './io';

/** Where `hooks install` puts the hook script: Claude Code's, then Codex CLI's. */
const SCRIPTS: readonly string[] = [SCRIPT_REL, CODEX_HOOK_SCRIPT_REL];

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** True when `dir` lies strictly inside `parent`. */
function inside(dir: string, parent: string): boolean {
  const r = path.relative(parent, dir);
  return r !== '' && !r.startsWith('..') && !path.isAbsolute(r);
}

const hasHooks = (dir: string): boolean => SCRIPTS.some((rel) => isFile(path.join(dir, rel)));

/** True when Claude Code keeps sessions started in `dir` (its transcripts' folder for `dir` exists). */
function claudeStartedIn(dir: string, env: NodeJS.ProcessEnv): boolean {
  try {
    return fs.statSync(path.join(claudeHome({ env }), 'projects', claudeProjectDirName(dir))).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest folder above `cwd` whose guard hooks are installed (never the home folder or `/`), or null. */
function hooksAbove(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const home = path.resolve(env.HOME || os.homedir());
  for (let d = path.dirname(cwd); d !== path.dirname(d) && d !== home; d = path.dirname(d)) if (hasHooks(d)) return d;
  return null;
}

/** The project whose installed hook script `script` is, when the command runs in a subfolder of it (`cwd`), else null. */
function scriptProject(cwd: string, script: string | undefined): string | null {
  if (!script) return null;
  const abs = path.resolve(cwd, script);
  for (const rel of SCRIPTS) {
    const tail = `${path.sep}${rel.split('/').join(path.sep)}`;
    if (abs.endsWith(tail) && inside(cwd, abs.slice(0, -tail.length))) return abs.slice(0, -tail.length);
  }
  return null;
}

/**
 * The project above `cwd` that a command there acts on (see the file's comment), or null for `cwd` itself;
 * `passed`: the project with installed hooks above an empty folder that stays its own project only because
 * a Claude Code session was started there.
 */
async function projectAbove(
  cwd: string,
  script: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ above: string | null; passed?: string }> {
  const own = scriptProject(cwd, script);
  if (own) return { above: own };
  if (hasHooks(cwd) || (await anyPresent(cwd))) return { above: null };
  if (claudeStartedIn(cwd, env)) return { above: null, passed: hooksAbove(cwd, env) ?? undefined };
  return { above: hooksAbove(cwd, env) };
}

/**
 * `--root` resolved as `resolveRoot` does; without it, the project the folder the command runs in belongs
 * to. When that is not the folder itself, one line on stderr names it.
 */
export async function projectRoot(root: string | undefined, io: Io): Promise<string> {
  if (root !== undefined || !io.cwd) return resolveRoot(root, io.cwd);
  const here = path.resolve(io.cwd);
  const { above, passed } = await projectAbove(here, io.script, io.env);
  // Nothing of the tool's here, and the project it belongs to is not the one acted on: say where that one is.
  if (passed)
    io.stderr(
      (await cliLanguage(io.env)).msg(
        t(
          'Project: {0} (a Claude Code session was started in this folder, so it is a project of its own). The guard hooks are installed in {1}, above it: {2} names that project.',
          here,
          passed,
          `--root ${shellWord(passed)}`,
        ),
      ),
    );
  return above ? projectSaid(above, io) : resolveRoot(undefined, io.cwd);
}

/** The project `above` the folder the command runs in, resolved, said in one line on stderr. */
async function projectSaid(above: string, io: Io): Promise<string> {
  const abs = await resolveRoot(above, io.cwd);
  const lang = await cliLanguage(io.env);
  sayEnglish(io, lang);
  io.stderr(
    lang.msg(
      t('Project: {0} (its guard hooks are installed there; this folder is inside it). --root names another.', abs),
    ),
  );
  return abs;
}

/**
 * For `init`, which sets a folder up: `--root` resolved as `resolveRoot` does; without it the folder it runs
 * in, or, run through the installed hook script from a subfolder of that script's project (as the command
 * `check` prints names it), that project, said in one line on stderr.
 */
export async function setUpRoot(root: string | undefined, io: Io): Promise<string> {
  const own = root === undefined && io.cwd ? scriptProject(path.resolve(io.cwd), io.script) : null;
  return own ? projectSaid(own, io) : resolveRoot(root, io.cwd);
}
