/**
 * The parts of the hook script that Node does not parse when it loads the file (scripts/lib/build.mjs
 * lays them out; ./hot says what each runs): each is a bundle in a block comment, the body of a
 * function that is never called (PART_FUNCTION). `loadPart` takes a part from its function's text
 * (the script's source as V8 keeps it, so the file is not read twice), turns each CORE_END_ESCAPED
 * back into a star-slash and compiles it: nothing compressed, nothing cached. A script without a
 * part (the status line's script holds only the transcript meter, the meter's own script none) takes
 * it from the hook script beside it, and from nowhere else.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CORE_END_ESCAPED,
  HOOK_CORE_MARKER,
  HOOK_HOOKS_MARKER,
  HOOK_METER_MARKER,
  HOOK_REST_MARKER,
  HOOK_SCRIPT_NAME,
  HOOK_TRANSCRIPT_MARKER,
  HOOK_WORDS_MARKER,
  HOOK_YAML_MARKER,
  PART_FUNCTION,
  PART_MARKERS,
} from '../core/hooks/files';
import type * as MeterPart from './meter';
import type * as TranscriptPart from './transcript';
import type { Core, CoreOrWhy } from './meter';
import type * as HooksPart from './hooks-main';
import type * as GuardModule from '../core/hooks/guard';

/** This file holds no such part (a build from source without one, or a damaged copy). */
export class CoreUnavailable extends Error {}

/** What the meter part exports (./meter). */
export type Meter = typeof MeterPart;
/** What the transcript part exports (./transcript). */
export type Transcript = typeof TranscriptPart;
/** What the hooks' part exports (./hooks-main). */
export type Hooks = typeof HooksPart;

const parts = new Map<string, unknown>();

/** What each part is, in messages. */
const PART_NAME: Record<string, string> = {
  [HOOK_TRANSCRIPT_MARKER]: 'transcript meter',
  [HOOK_METER_MARKER]: 'meter',
  [HOOK_CORE_MARKER]: 'core',
  [HOOK_HOOKS_MARKER]: 'hooks',
  [HOOK_REST_MARKER]: 'rest of the CLI',
  [HOOK_YAML_MARKER]: 'YAML library',
  [HOOK_WORDS_MARKER]: 'Japanese and Korean words',
};

// The functions the build writes after part 1, one per part, whose bodies are the parts' comments.
declare const sessionLedgerTranscript: unknown,
  sessionLedgerMeter: unknown,
  sessionLedgerCore: unknown,
  sessionLedgerHooks: unknown,
  sessionLedgerRest: unknown,
  sessionLedgerYaml: unknown,
  sessionLedgerWords: unknown;
/** The parts in the order they stand in the file. */
const MARKERS = PART_MARKERS;
/**
 * The line of this file on which each part's function begins, in MARKERS' order,
 * comma-separated: the build writes the numbers in place of this placeholder.
 */
const PART_LINES = '__SESSION_LEDGER_PART_LINES__';

/**
 * The part after `marker` from this very script, without reading the file again (V8 keeps the
 * script's source, and a function's text is a view of it), with the line its function begins on; or
 * null (a build without parts, or a copy cut short before this one).
 */
function ownPart(marker: string): { text: string; line: number } | null {
  const i = MARKERS.indexOf(marker);
  const fn = [
    typeof sessionLedgerTranscript === 'function' && sessionLedgerTranscript,
    typeof sessionLedgerMeter === 'function' && sessionLedgerMeter,
    typeof sessionLedgerCore === 'function' && sessionLedgerCore,
    typeof sessionLedgerHooks === 'function' && sessionLedgerHooks,
    typeof sessionLedgerRest === 'function' && sessionLedgerRest,
    typeof sessionLedgerYaml === 'function' && sessionLedgerYaml,
    typeof sessionLedgerWords === 'function' && sessionLedgerWords,
  ][i];
  const line = Number(PART_LINES.split(',')[i]);
  if (!fn || !(line > 0)) return null;
  return { text: Function.prototype.toString.call(fn), line };
}

/** The last other script read for its parts: the core, the rest and the YAML library of one file read it once. */
let read: { file: string; text: string } | null = null;

/** The text of another script (the hook script beside this one), read once per process. */
function textOf(file: string): string {
  if (read?.file === file) return read.text;
  try {
    // The parts in comments are ASCII (the build writes every other character as an escape): no decoding needed.
    read = { file, text: fs.readFileSync(file, 'latin1') };
  } catch (err) {
    throw new CoreUnavailable(
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  return read.text;
}

/** Compile and run the part after the line `marker` of this very file (once per process); its exports. */
function loadPart<T>(marker: string, file = __filename, req: (id: string) => unknown = require): T {
  const done = parts.get(marker);
  if (done) return done as T;
  // Loaded only here: the status line's usual call never pays for it.
  const vm = require('node:vm') as typeof import('node:vm');
  const decl = `function ${PART_FUNCTION[marker]}() {\n/*\n`;
  let text: string;
  // The line of `text` on which `decl` begins.
  let line = 1;
  const own = file === __filename ? ownPart(marker) : null;
  const missing = () =>
    new CoreUnavailable(
      `${file} holds no ${PART_NAME[marker]} (the line "${marker}" and the comment after it are missing or cut short)`,
    );
  if (own) ({ text, line } = own);
  // This script defines no function for the part: it holds none (the status line's and the meter's scripts hold no core).
  else if (file === __filename) throw missing();
  else text = textOf(file);
  // A copy checked out with CRLF line ends (git's autocrlf on Windows) holds the same parts.
  if (text.includes('\r\n')) text = text.replaceAll('\r\n', '\n');
  const open = own ? decl : `\n${marker}\n${decl}`;
  const at = text.indexOf(open);
  const end = at < 0 ? -1 : text.indexOf('\n*/\n}', at + open.length - 1);
  if (at < 0 || end < 0) throw missing();
  const head = text.slice(0, at + open.length);
  if (!own) line = head.split('\n').length - 2;
  // replaceAll, not split and join: about 0.5 ms less on a hook's part (split builds an array of the pieces).
  const body = text.slice(head.length, end).replaceAll(CORE_END_ESCAPED, '*/');
  // Compiled as a function body, the way Node compiles a module. Stack traces name this file and the
  // line the code stands on in it (two lines below the function's).
  const run = vm.compileFunction(body, ['exports', 'require', 'module', '__filename', '__dirname'], {
    filename: file,
    lineOffset: line + 1,
  });
  const mod = { exports: {} as T };
  run.call(mod.exports, mod.exports, req, mod, file, __dirname);
  parts.set(marker, mod.exports);
  return mod.exports;
}

/** The status line's transcript meter: from this file (the status line's script holds it too). */
export const loadTranscript = (): Transcript => loadPart<Transcript>(HOOK_TRANSCRIPT_MARKER);

/** The meter part (`context`, `hook remind`): from this file, else (the status line's script) from the hook script beside it. */
export const loadMeter = (): Meter => fromHere((file) => loadPart<Meter>(HOOK_METER_MARKER, file));

/**
 * The whole CLI (the extension takes the core's modules from its `__m`): from this file, else (the
 * status line's script) from the hook script beside it. Its `require('yaml')` is the YAML part of the
 * same file, compiled then.
 */
export function loadCore(): Core {
  return fromHere(coreFrom);
}

/** `load` of this file, else (a script without that part) of the hook script beside it, and of no other. */
function fromHere<T>(load: (file: string) => T): T {
  try {
    return load(__filename);
  } catch (err) {
    const beside = path.join(__dirname, HOOK_SCRIPT_NAME);
    if (!(err instanceof CoreUnavailable) || beside === __filename) throw err;
    return load(beside);
  }
}

/**
 * What a part of `file` requires through: `yaml` is the YAML part of the same file, and
 * `session-ledger-rest` the rest's part, each compiled when first asked for; the rest takes the
 * core's modules through `session-ledger-core`; anything else is Node's.
 */
function partRequire(file: string): (id: string) => unknown {
  const req = (id: string): unknown =>
    id === 'yaml'
      ? loadPart(HOOK_YAML_MARKER, file)
      : id === 'session-ledger-rest'
        ? loadPart(HOOK_REST_MARKER, file, req)
        : id === 'session-ledger-core'
          ? loadPart<Core>(HOOK_CORE_MARKER, file, req)
          : (require(id) as unknown);
  return req;
}

/** The core of `file`. */
function coreFrom(file: string): Core {
  const req = partRequire(file);
  const core = loadPart<Core>(HOOK_CORE_MARKER, file, req);
  coreRequire = req;
  return core;
}

/**
 * The PreCompact and SessionStart hooks' own part (./hooks-main): from this file, else (the status
 * line's script) from the hook script beside it. Its `require('yaml')` is the YAML part of the same file.
 */
export function loadHooks(): Hooks {
  return fromHere((file) => loadPart<Hooks>(HOOK_HOOKS_MARKER, file, partRequire(file)));
}

/** What the loaded core's parts require through (set once the core is loaded). */
let coreRequire: ((id: string) => unknown) | null = null;

/** The rest of the CLI's part (the extension takes the modules only those commands need from its `__m`). */
export function loadRest(): { __m: Record<string, unknown> } {
  if (!coreRequire) loadCore();
  return (coreRequire as (id: string) => unknown)('session-ledger-rest') as { __m: Record<string, unknown> };
}

/**
 * The hook script's Japanese and Korean words (./locale's `Words`): its part of them, from this file,
 * else (the status line's and the meter's scripts) from the hook script beside it, and from no other
 * file; null when neither holds them (a copy cut short) or they cannot be read: the hooks speak
 * English then, without a word about it.
 */
export function loadWords(): Readonly<Record<string, unknown>> | null {
  try {
    const table = fromHere((file) => loadPart<unknown>(HOOK_WORDS_MARKER, file));
    return table && typeof table === 'object' ? (table as Readonly<Record<string, unknown>>) : null;
  } catch {
    return null;
  }
}

/** The hooks' own part, or null when neither this script nor the hook script beside it holds one (a copy cut short). */
export function hooksOrNull(): Hooks | null {
  try {
    return loadHooks();
  } catch (err) {
    if (err instanceof CoreUnavailable) return null;
    throw err;
  }
}

/** The core, or why there is none beside this script. */
export function coreOrWhy(): CoreOrWhy {
  try {
    return { core: loadCore() };
  } catch (err) {
    if (err instanceof CoreUnavailable) return { missing: err.message };
    throw err;
  }
}

/** What the status line and the reminder ask the PreCompact guard: whether the session's checkpoint is done. */
export type Guard = Pick<typeof GuardModule, 'checkpointDone'>;

/**
 * The guard as the hook runs it: its own part of the hook script, else (a copy without it) the core's;
 * null when neither is there.
 */
export function guardOrNull(): Guard | null {
  const hooks = hooksOrNull();
  if (hooks) return hooks;
  const c = coreOrWhy();
  return 'core' in c ? ((c.core.__m['src/core/hooks/guard.ts'] as Guard | undefined) ?? null) : null;
}
