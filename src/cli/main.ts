/**
 * session-ledger: the command-line tool over the core, used by the Claude Code hooks and in CI.
 * Exit codes: 0 ok, 1 a check blocks, 2 bad usage or unreadable root, 3 nothing found (context).
 */
import { readFilesBlocking } from '../core/context/files';
import { useFullConfigReader } from '../core/context/full-reader';
import { t } from '../core/model/messages';
import { asksForHelp, SaidUsageError } from './args';
import { exitWith, internalError, processIo, terminalSafeIo, UsageError, type Io } from './io';
import { cliLanguage, sayEnglish } from './bundle';
import type { CheckpointDoneQuery } from '../core/hooks/guard';

export interface Command {
  run(args: string[], io: Io): Promise<number>;
}

/**
 * Commands load lazily (a dynamic import each), so a hook or the status line pays only for the
 * modules its own command needs: `context` never loads the Markdown and YAML readers. Their help
 * (./help) loads none of them.
 */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  status: () => import('./commands/status'),
  check: () => import('./commands/check'),
  // Past a mark `context` says "checkpoint done" as the status line does: the guard's decision, loaded only when asked.
  context: async () => {
    const { run } = await import('./commands/context');
    const done = async (root: string, q: CheckpointDoneQuery) =>
      (await import('../core/hooks/guard')).checkpointDone(root, q);
    return { run: (args: string[], io: Io) => run(args, io, done) };
  },
  statusline: () => import('./commands/statusline'),
  checkpoint: () => import('./commands/checkpoint'),
  hook: () => import('./commands/hook'),
  hooks: () => import('./commands/hooks'),
  attest: () => import('./commands/attest'),
  'compact-state': () => import('./commands/compact-state'),
  'rotate-log': () => import('./commands/rotate-log'),
  init: () => import('./commands/init'),
  'enable-ledger': () => import('./commands/enable-ledger'),
};

// `context` asks the YAML reader about an .agents.yml its light reader is unsure of (loaded then only).
useFullConfigReader(async () => (await import('../core/systems/s0/reader')).s0ConfigOfText);

const VERSION = typeof __VERSION__ !== 'undefined' ? __VERSION__ : 'dev';
/** The manuals (./help), loaded only for help and usage errors. */
const help = () => import('./help');
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  // A command-line process reads the meter's files synchronously (the extension host, which loads this module too, never calls main).
  readFilesBlocking();
  const [name, ...rest] = argv;
  if (!name) {
    const lang = await cliLanguage(io.env);
    sayEnglish(io, lang);
    io.stderr(`${(await help()).overview(VERSION, lang)}\n\n${lang.msg(t('session-ledger: no command given.'))}`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `session-ledger help check` is `session-ledger check --help`.
    const topic = name === 'help' ? rest[0] : undefined;
    const { helpRequest, MANUALS, overview } = await help();
    const lang = await cliLanguage(io.env);
    sayEnglish(io, lang);
    io.stdout(
      topic && has(MANUALS, topic)
        ? (helpRequest(topic, [...rest.slice(1), '--help'], lang) as string)
        : overview(VERSION, lang),
    );
    return 0;
  }
  if (name === '--version' || name === '-V' || name === '-v') {
    io.stdout(VERSION);
    return 0;
  }
  const load = has(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    const lang = await cliLanguage(io.env);
    sayEnglish(io, lang);
    terminalSafeIo(io).stderr(
      lang.msg(
        t(
          "session-ledger: unknown command '{0}'. The commands: {1}. Run `session-ledger --help` for what each does.",
          name,
          Object.keys(COMMANDS).join(', '),
        ),
      ),
    );
    return 2;
  }
  // Help is answered before the command loads, in the locale's language: it reads no stdin and writes no file.
  if (asksForHelp(rest)) {
    const lang = await cliLanguage(io.env);
    sayEnglish(io, lang);
    io.stdout((await help()).helpRequest(name, rest, lang) as string);
    return 0;
  }
  try {
    // Every text we print is terminal-safe; the statusline relay prints the user's own command's output as it is.
    return await (await load()).run(rest, name === 'statusline' ? io : terminalSafeIo(io));
  } catch (err) {
    if (err instanceof UsageError) {
      // One line: what is wrong, then where the options are (the usage and the command as they are in every language).
      const lang = await cliLanguage(io.env);
      sayEnglish(io, lang);
      const usage = (await help()).MANUALS[name].usage.split('   ')[0];
      const what = err instanceof SaidUsageError ? lang.msg(err.said) : err.message;
      terminalSafeIo(io).stderr(
        lang.msg(
          t('session-ledger {0}: {1} (usage: {2}; more: {3})', name, what, usage, `session-ledger ${name} --help`),
        ),
      );
      return 2;
    }
    // Never a stack trace for the user's content: one line, and exit 2.
    internalError(io, name, err);
    return 2;
  }
}

declare const __VERSION__: string;

if (require.main === module) exitWith(main(process.argv.slice(2)));
