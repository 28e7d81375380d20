/** Argument parsing on node:util parseArgs, with usage errors the CLI turns into exit 2. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { t, type Msg } from '../core/model/messages';
import { UsageError } from './io';

/**
 * A usage error as a message, which the CLI says in the locale's language (../core/model/messages'
 * `Language`); its `message` is the English text. The status line's own part never builds one: its
 * usage errors are reported by the whole CLI.
 */
export class SaidUsageError extends UsageError {
  constructor(readonly said: Msg) {
    super(said.text);
  }
}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  const quick = plainArgs(args, options, allowPositionals);
  if (quick)
    return quick as ReturnType<
      typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>
    >;
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw parseError(err as Error & { code?: string });
  }
}

/**
 * What parseArgs (strict) returns for the plain shapes every hook, the status line and most commands
 * use: `--name value`, `--name=value`, `--flag`, and positionals where allowed. Anything else (a
 * short option, `--`, an unknown or repeated option, a value that starts with `-` or is missing, a
 * value given to a flag) is null: parseArgs decides it, with its own errors. Node compiles its
 * parser on first use (a few million instructions: a millisecond of every command's start).
 */
export function plainArgs(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  allowPositionals: boolean,
): { values: Record<string, string | boolean | Array<string | boolean>>; positionals: string[] } | null {
  const values: Record<string, string | boolean | Array<string | boolean>> = Object.create(null);
  const positionals: string[] = [];
  const has = (k: string) => Object.prototype.hasOwnProperty.call(options, k);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) {
      if (!allowPositionals) return null;
      positionals.push(a);
      continue;
    }
    if (!a.startsWith('--') || a === '--') return null;
    const eq = a.indexOf('=');
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    if (!has(name)) return null;
    const o = options[name];
    let v: string | boolean;
    if (o.type === 'boolean') {
      if (eq >= 0) return null;
      v = true;
    } else if (eq >= 0) v = a.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('-')) return null;
      v = next;
      i++;
    }
    if (o.multiple) {
      const list = (values[name] ??= []) as Array<string | boolean>;
      list.push(v);
    } else if (name in values) return null;
    else values[name] = v;
  }
  for (const k of Object.keys(options)) {
    const d = options[k].default;
    if (d !== undefined && !(k in values)) values[k] = Array.isArray(d) ? [...d] : d;
  }
  return { values, positionals };
}

/** node:util's parse errors in a line: the argument and what is wrong with it (any other error in node's words). */
function parseError(err: Error & { code?: string }): UsageError {
  const arg = /'([^']*)'/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && arg) return new SaidUsageError(t("unknown option '{0}'", arg));
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && arg)
    return new SaidUsageError(t("unexpected argument '{0}'", arg));
  // node names the option as its usage does (`--root <value>`, `-r, --root <value>`): said by its long name.
  const option = arg?.split(/[ ,]+/).find((w) => w.startsWith('--'));
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (err.message.includes('argument missing')) return new SaidUsageError(t("option '{0}' needs a value", option));
    if (err.message.includes('does not take an argument'))
      return new SaidUsageError(t("option '{0}' takes no value", option));
  }
  return new UsageError(err.message);
}

/** The meter's commands (src/cli/meter.ts runs them; src/cli/hot.ts routes them there). */
export type MeterCommand = 'statusline' | 'context' | 'hook remind';

/** A command's own arguments: those before any `--` (after it they belong to another program). */
export function ownArgs(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end >= 0 ? args.slice(0, end) : args;
}

/** A command's arguments ask for its manual: `--help` or `-h` before any `--`. */
export function asksForHelp(args: readonly string[]): boolean {
  const own = ownArgs(args);
  return own.includes('--help') || own.includes('-h');
}

/** The meter's command an argument list names, with the arguments after it; null for any other command. */
export function meterCommand(argv: readonly string[]): { name: MeterCommand; rest: string[] } | null {
  const [name, ...rest] = argv;
  if (name === 'statusline' || name === 'context') return { name, rest };
  if (name === 'hook' && rest[0] === 'remind') return { name: 'hook remind', rest: rest.slice(1) };
  return null;
}

/** Resolve `--root` (default: cwd) and make sure it is a readable directory. */
export async function resolveRoot(root: string | undefined, cwd: string): Promise<string> {
  const abs = path.resolve(cwd, root ?? '.');
  // Synchronous: fs.promises would load Node's stream modules into every command, the status line's meter included.
  let st;
  try {
    st = fs.statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SaidUsageError(
      code === 'ENOENT' ? t('root not found: {0}', abs) : t('cannot read root {0}: {1}', abs, code ?? ''),
    );
  }
  if (!st.isDirectory()) throw new SaidUsageError(t('root is not a directory: {0}', abs));
  try {
    fs.readdirSync(abs);
  } catch (err) {
    throw new SaidUsageError(t('cannot read root {0}: {1}', abs, (err as NodeJS.ErrnoException).code ?? ''));
  }
  return abs;
}

/** `--confirm a,b` (repeatable) into a flat list. */
export function listOpt(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}
