/** Argument parsing on node:util parseArgs, with usage errors the CLI turns into exit 2. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './io';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  // No arguments (the status line's usual call) and no defaults: what parseArgs returns (values without
  // a prototype), without loading it (Node compiles its parser on first use: about 3 M instructions).
  if (args.length === 0 && !Object.values(options).some((o) => o.default !== undefined))
    return { values: Object.create(null) as object, positionals: [] } as unknown as ReturnType<
      typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>
    >;
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(parseError(err as Error & { code?: string }));
  }
}

/** node:util's parse errors in a line: the argument and what is wrong with it. */
function parseError(err: Error & { code?: string }): string {
  const arg = /'([^']*)'/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && arg) return `unknown option '${arg}'`;
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && arg) return `unexpected argument '${arg}'`;
  return err.message;
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
    throw new UsageError(code === 'ENOENT' ? `root not found: ${abs}` : `cannot read root ${abs}: ${code}`);
  }
  if (!st.isDirectory()) throw new UsageError(`root is not a directory: ${abs}`);
  try {
    fs.readdirSync(abs);
  } catch (err) {
    throw new UsageError(`cannot read root ${abs}: ${(err as NodeJS.ErrnoException).code}`);
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
