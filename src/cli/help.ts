/**
 * What `session-ledger --help` and `session-ledger <command> --help` print: for every command (and
 * each subcommand of `hook` and `hooks`) its usage, options, exit codes and one example. Help is
 * text only: printing it loads no command and writes no file.
 *
 * A manual is printed in the locale's language as `check` is (../core/model/messages' `Language`, the
 * extension's l10n bundles): its headings are templates (`t`), its prose (`manualIn`) the bundles'
 * entries keyed by each English string whole; command lines, option names and the example stay as
 * they are in every language.
 */

import { t, type Language } from '../core/model/messages';
import { ALL_FACTS, type CommandHelp } from '../core/systems/facts';
import { REPO_CHECKS } from '../core/systems/s3/facts';
import { asksForHelp, ownArgs } from './args';

/** A command's manual: what a system's write action declares (CommandHelp), and the subcommands' own. */
export interface Manual extends CommandHelp {
  /** `hook pre-compact`, `hooks install`, …: their own manuals. */
  sub?: Record<string, Manual>;
}

const ROOT: [string, string] = [
  '--root DIR',
  'the project folder (default: the current folder; in a subfolder of a project whose guard hooks are installed, that project)',
];
/** For the commands that set a folder up (hooks, init, enable-ledger): the folder they run in, never one above. */
const ROOT_HERE: [string, string] = ['--root DIR', 'the project folder (default: the current folder)'];
/** `init`'s: the folder it runs in, or the project of the installed hook script it runs through from a subfolder. */
const ROOT_INIT: [string, string] = [
  '--root DIR',
  "the project folder (default: the current folder; run through a project's installed hook script from a subfolder of it, that project)",
];
const JSON_OPT: [string, string] = ['--json', 'print JSON instead of text'];
const CONFIRM: [string, string] = [
  '--confirm ID,...',
  'manual items you confirm were done: feedback-stored, last-request, each once for every system (S1:feedback-stored is the same; repeatable)',
];
/** `hooks install`'s, listed in the `hooks` manual too. */
const CLI_BUNDLE: [string, string] = ['--cli-bundle FILE', "the hook script to copy (default: this CLI's)"];
const USAGE_EXIT: [number, string] = [2, 'bad usage, or the root cannot be read'];

/** The write actions the systems' homes declare, with what every command shares added. */
function homeCommands(): Record<string, Manual> {
  const out: Record<string, Manual> = {};
  for (const f of ALL_FACTS)
    for (const [name, h] of Object.entries(f.commands ?? {}))
      out[name] = { ...h, options: [ROOT, ...h.options, JSON_OPT], exit: [...h.exit, USAGE_EXIT] };
  return out;
}

const PRE_COMPACT: Manual = {
  summary: 'the PreCompact guard: blocks a manual /compact until a checkpoint was written',
  usage: "session-ledger hook pre-compact [--root DIR] [--codex]   (the client's hook JSON on stdin)",
  about:
    'Claude Code (or Codex CLI) runs it before /compact. A manual /compact is refused until `session-ledger checkpoint` wrote\n' +
    '.claude/.checkpoint-ready.<session-id> (or the marker says nothing-to-preserve); automatic compactions pass.\n' +
    'Anything unexpected (bad stdin, an internal error) allows and is logged to .claude/log/session-ledger-hook.log.',
  options: [
    ['--root DIR', "the project folder (default: $CLAUDE_PROJECT_DIR, else the payload's cwd)"],
    ['--codex', 'answer as Codex CLI reads it: a block is {"continue":false,"stopReason":…} on stdout, exit 0'],
  ],
  exit: [
    [0, 'allow the compaction (with --codex: also a block, said on stdout)'],
    [2, 'block it; the reason, on stderr, says what to do'],
  ],
  example:
    'echo \'{"session_id":"abc","cwd":"\'$PWD\'","hook_event_name":"PreCompact","trigger":"manual"}\' | session-ledger hook pre-compact',
};

const SESSION_START: Manual = {
  summary: 'the SessionStart hook: records the session; after /clear or /compact prints the resume block',
  usage: "session-ledger hook session-start [--root DIR] [--codex]   (the client's hook JSON on stdin)",
  about:
    'Records the session in .claude/session-ledger/session.json. After /clear or /compact it prints, for the new\n' +
    'context, the file to read, the next action, the UNCONFIRMED items and any blocking findings.',
  options: [['--root DIR', "the project folder (default: $CLAUDE_PROJECT_DIR, else the payload's cwd)"]],
  exit: [[0, 'always (nothing can block /clear)']],
  example:
    'echo \'{"session_id":"abc","cwd":"\'$PWD\'","hook_event_name":"SessionStart","source":"clear"}\' | session-ledger hook session-start',
};

const REMIND: Manual = {
  summary:
    'the UserPromptSubmit reminder (hooks install --remind): suggests a checkpoint once the context crosses a mark',
  usage: "session-ledger hook remind [--root DIR]   (Claude Code's hook JSON on stdin)",
  about:
    "Before each prompt: when the context has crossed a detected system's mark (S3 15 % and 40 %, S0 70 % and 85 % …),\n" +
    'adds one line for the agent: which system, which mark, its checkpoint trigger. Once per mark per session (again\n' +
    'after a compaction); silent below the first mark, with no system, and while a fresh checkpoint marker covers the state.',
  options: [['--root DIR', "the project folder (default: $CLAUDE_PROJECT_DIR, else the payload's cwd)"]],
  exit: [[0, 'always (it never blocks a prompt)']],
  example:
    'echo \'{"session_id":"abc","transcript_path":"/path/to/abc.jsonl","hook_event_name":"UserPromptSubmit"}\' | session-ledger hook remind',
};

const HOOKS_OPTIONS: Array<[string, string]> = [
  ROOT_HERE,
  ['--local', 'use .claude/settings.local.json (not shared with the team) instead of .claude/settings.json'],
  ['--dry-run', 'print the change as a diff and write nothing'],
];

const HOOKS_INSTALL: Manual = {
  summary: 'add the guard hooks to .claude/settings.json and write .claude/hooks/session-ledger.cjs',
  usage:
    'session-ledger hooks install [--root DIR] [--local] [--statusline] [--remind] [--codex] [--cli-bundle FILE] [--dry-run]',
  about:
    'Writes .claude/hooks/session-ledger.cjs (this CLI as one plain JavaScript file; it needs only node) and appends\n' +
    'hooks.PreCompact (matcher manual) and hooks.SessionStart to the settings file, leaving the rest of it byte for byte.\n' +
    'With --codex the same for Codex CLI: .codex/hooks/session-ledger.cjs and .codex/hooks.json; Codex runs them once\n' +
    'you trusted the project and the two hooks (it lists new hooks at start-up; /hooks). Twice changes nothing.',
  options: [
    ...HOOKS_OPTIONS,
    [
      '--codex',
      "Codex CLI's .codex/hooks.json instead of Claude Code's settings (not with --local, --statusline, --remind)",
    ],
    [
      '--statusline',
      'also set statusLine to the context meter relay (a status line you had keeps running inside it; with --local also one of .claude/settings.json or your user settings)',
    ],
    [
      '--remind',
      "also add hooks.UserPromptSubmit: the reminder that suggests a checkpoint to the agent at each system's marks",
    ],
    CLI_BUNDLE,
  ],
  exit: [
    [0, 'installed, or already installed'],
    [1, 'refused: the settings file does not parse, or changed while it was being edited; nothing written'],
    USAGE_EXIT,
  ],
  example: 'session-ledger hooks install --dry-run',
};

const HOOKS_UNINSTALL: Manual = {
  summary: 'remove exactly what install added',
  usage: 'session-ledger hooks uninstall [--root DIR] [--local] [--codex] [--dry-run]',
  about:
    "Removes the hook entries (the reminder's too), the status line relay (your own status line is put back), the script, and the\n" +
    'settings file when install created it. Installed with --local (or --codex)? Uninstall with it too.',
  options: [...HOOKS_OPTIONS, ['--codex', "Codex CLI's .codex/hooks.json"]],
  exit: [
    [0, 'removed, or nothing to remove'],
    [1, 'refused: the settings file does not parse, or changed while it was being edited; nothing written'],
    USAGE_EXIT,
  ],
  example: 'session-ledger hooks uninstall',
};

export const MANUALS: Record<string, Manual> = {
  status: {
    summary: 'what was detected: documents, sections, items, checks, label, whether /compact is guarded',
    usage: 'session-ledger status [--root DIR] [--json] [--confirm ID,...]',
    options: [ROOT, JSON_OPT, CONFIRM],
    exit: [[0, 'printed (whatever the label)'], USAGE_EXIT],
    example: 'session-ledger status --json --root ~/src/shop',
  },
  check: {
    summary: 'the checks; exit 1 when something blocks',
    usage: 'session-ledger check [--root DIR] [--json] [--strict] [--confirm ID,...] [--run-checks]',
    options: [
      ROOT,
      JSON_OPT,
      ['--strict', 'also exit 1 when the label is PARTIAL (a warning or an unticked manual item)'],
      CONFIRM,
      [
        '--run-checks',
        `run the repository's own ${REPO_CHECKS} (node, no shell, 2 min limit) and add its result; never without this flag`,
      ],
    ],
    exit: [
      [0, 'nothing blocks (WORKING, or PARTIAL without --strict), or no state file'],
      [1, 'a check blocks (BROKEN; with --strict also PARTIAL)'],
      USAGE_EXIT,
    ],
    example: 'session-ledger check --strict --confirm feedback-stored,last-request',
  },
  context: {
    summary: "how full the agent's context window is",
    usage: 'session-ledger context [--root DIR] [--transcript FILE] [--agent claude|codex] [--json]',
    about:
      'Claude Code: the newest ~/.claude/projects/<encoded root>/<session>.jsonl ($CLAUDE_CONFIG_DIR honoured).\nCodex CLI: the newest ~/.codex/sessions/**/rollout-*.jsonl of this folder ($CODEX_HOME honoured).',
    options: [
      ROOT,
      ['--transcript FILE', 'read this transcript instead of finding the newest one'],
      ['--agent claude|codex', 'only this agent (default: both)'],
      JSON_OPT,
    ],
    exit: [
      [0, 'a figure was printed'],
      USAGE_EXIT,
      [3, 'no agent session (or no usage in it) was found; the reason is on stderr'],
    ],
    example: 'session-ledger context --agent claude',
  },
  statusline: {
    summary: "Claude Code's statusLine relay: records its context figure, prints a status line (or CMD's)",
    usage: "session-ledger statusline [--root DIR] [-- CMD...]   (Claude Code's statusLine JSON on stdin)",
    about:
      "Records the JSON under .claude/session-ledger/ so the meter can use Claude Code's own figure, then prints\n" +
      'its own line, or runs CMD (your previous status line) with the same stdin and prints its output.',
    options: [
      ['--root DIR', "the project folder (default: the payload's project dir, else its cwd)"],
      ['-- CMD...', 'the previous statusLine command: one argument runs through the shell, several run as they are'],
    ],
    exit: [
      [0, 'printed'],
      [2, 'bad usage'],
      [-1, "with -- CMD: CMD's own exit code"],
    ],
    example: 'session-ledger statusline -- "npx ccstatusline"',
  },
  checkpoint: {
    summary: "check, then write the marker .claude/.checkpoint-ready.<id> and print each system's closing step",
    usage:
      'session-ledger checkpoint [--root DIR] [--session ID] [--shared] [--nothing-to-preserve] [--confirm ID,...] [--json]',
    about:
      'Runs the checks of every detected system. Only when no check blocks and every manual item is confirmed\n' +
      "(--confirm) does it write the marker the PreCompact guard looks for: the session's own, or the shared marker\n" +
      "when no session is known (see --session); then it prints each system's closing step and resume prompt.",
    options: [
      ROOT,
      [
        '--session ID',
        'the Claude Code session or Codex CLI thread (default: the one session of the project that wrote recently, of either client; with several that wrote recently, whatever their clients, it lists them with their clients and asks which; with none that wrote recently, the newest session of either client, else the SessionStart record)',
      ],
      [
        '--shared',
        "write the shared marker .claude/.checkpoint-ready, the one the guard reads when the client sent no session id, signed by the session --session names or the one found here (another session's guard does not take it)",
      ],
      ['--nothing-to-preserve', 'write a marker that allows /compact although the state files say nothing new'],
      CONFIRM,
      JSON_OPT,
    ],
    exit: [
      [
        0,
        'marker written, closing steps printed; or every detected system is switched off by its own configuration (S0 without session.ledger: true): its skip line, no marker',
      ],
      [
        1,
        'no marker written: something blocks, manual items unconfirmed, nothing detected, the session unclear (each reason printed)',
      ],
      [2, 'bad usage (a bad --session, an unknown --confirm id), or the root cannot be read'],
    ],
    example:
      'session-ledger checkpoint --session 0b5c4a7e-2f61-4d3c-9a8e-1f2e3d4c5b6a --confirm feedback-stored,last-request',
  },
  hook: {
    summary: 'the Claude Code and Codex CLI hooks (hook JSON on stdin): pre-compact, session-start, remind',
    usage: 'session-ledger hook pre-compact|session-start|remind [--root DIR] [--codex]',
    about:
      'Run by Claude Code (or Codex CLI) after `session-ledger hooks install`. A hook never fails the agent: anything unexpected\nallows and is logged to .claude/log/session-ledger-hook.log.',
    options: [
      ['--root DIR', "the project folder (default: $CLAUDE_PROJECT_DIR, else the payload's cwd)"],
      ['--codex', "Codex CLI's hook: pre-compact says a block on stdout as JSON (exit 0)"],
    ],
    exit: [
      [0, 'allow (session-start: always)'],
      [2, 'pre-compact blocks the compaction; the reason is on stderr'],
    ],
    example: 'session-ledger hook pre-compact --help',
    sub: { 'pre-compact': PRE_COMPACT, 'session-start': SESSION_START, remind: REMIND },
  },
  hooks: {
    summary: 'add or remove the guard hooks (Claude Code: .claude/settings.json; Codex CLI: .codex/hooks.json)',
    usage:
      'session-ledger hooks install|uninstall [--root DIR] [--local] [--statusline] [--remind] [--codex] [--cli-bundle FILE] [--dry-run]',
    options: [
      ...HOOKS_OPTIONS,
      ['--statusline', 'install only: also wire the context meter relay into statusLine'],
      [
        '--remind',
        "install only: also add hooks.UserPromptSubmit, the reminder that suggests a checkpoint to the agent at each system's marks",
      ],
      ['--codex', "Codex CLI's .codex/hooks.json instead of Claude Code's settings"],
      CLI_BUNDLE,
    ],
    exit: [[0, 'done, or nothing to do'], [1, 'refused; nothing written'], USAGE_EXIT],
    example: 'session-ledger hooks install --dry-run',
    sub: { install: HOOKS_INSTALL, uninstall: HOOKS_UNINSTALL },
  },
  // Each system's own write actions (attest, rotate-log, compact-state): their help is in the system's home.
  ...homeCommands(),
  init: {
    summary: "write a system's starter file (the extension's Create starter file); never overwrites",
    usage: 'session-ledger init [S0|S1|S2|S3|S4] [--root DIR] [--dry-run]',
    about:
      "Writes the empty template of the system's home file (and its companion, if any), placeholders to fill in: the\n" +
      'checks flag them until then. A home file that exists refuses; a companion that exists is left as it is.\n' +
      "Without a system it lists each starter's files and writes nothing.",
    options: [ROOT_INIT, ['--dry-run', 'say what would be written, write nothing']],
    exit: [
      [0, 'written, listed or previewed'],
      [1, 'refused: the home file exists (or a write was refused); nothing overwritten'],
      USAGE_EXIT,
    ],
    example: 'session-ledger init S3',
  },
};

/** What every manual and the overview list last: the help option, said in the manual's language. */
const helpOpt = (lang: Language): [string, string] => ['-h, --help', lang.msg(t('show this help'))];
/** What stands after a usage's command line, set off by three spaces: a note on its input. */
const NOTE = '   ';

/**
 * `m` with its prose said by `say`: the summary, the about text, the usage's note, each option's and
 * exit code's text, its subcommands' manuals; each string whole (an about text of several lines is one).
 */
export function manualIn(m: Manual, say: (english: string) => string): Manual {
  const at = m.usage.indexOf(NOTE);
  const out: Manual = {
    summary: say(m.summary),
    usage: at < 0 ? m.usage : m.usage.slice(0, at + NOTE.length) + say(m.usage.slice(at + NOTE.length)),
    options: m.options.map(([flag, text]) => [flag, say(text)]),
    exit: m.exit.map(([code, text]) => [code, say(text)]),
    example: m.example,
  };
  if (m.about !== undefined) out.about = say(m.about);
  if (m.sub) out.sub = Object.fromEntries(Object.entries(m.sub).map(([k, s]) => [k, manualIn(s, say)]));
  return out;
}

function table(rows: Array<[string, string]>): string[] {
  const w = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `  ${a.padEnd(w)}  ${b}`);
}

/** The manual of `name` (`hook pre-compact` → its subcommand's), as printed by --help, in `lang`. */
export function manualText(name: string, manual: Manual, lang: Language): string {
  const m = manualIn(manual, (s) => lang.say(s, s));
  const out = [`session-ledger ${name}: ${m.summary}`, '', lang.msg(t('Usage: {0}', m.usage))];
  if (m.about) out.push('', ...m.about.split('\n'));
  if (m.sub)
    out.push(
      '',
      lang.msg(t('Subcommands:')),
      ...table(Object.entries(m.sub).map(([k, s]) => [k, s.summary])),
      `  ${lang.msg(t('({0} --help for each)', `session-ledger ${name} <subcommand>`))}`,
    );
  out.push('', lang.msg(t('Options:')), ...table([...m.options, helpOpt(lang)]));
  out.push('', lang.msg(t('Exit codes:')), ...table(m.exit.map(([c, s]) => [c < 0 ? '*' : String(c), s])));
  out.push('', lang.msg(t('Example:')), `  ${m.example}`);
  return out.join('\n');
}

/** `session-ledger --help`, in `lang`. */
export function overview(version: string, lang: Language): string {
  return [
    t(
      '{0}: read, check and guard the files an AI coding agent keeps its working memory in.',
      `session-ledger ${version}`,
    ),
    '',
    t('Usage: {0}', 'session-ledger <command> [options]'),
    '',
    t('Commands:'),
    ...table(Object.entries(MANUALS).map(([k, m]) => [k, lang.say(m.summary, m.summary)])),
    '',
    t('Options:'),
    ...table([helpOpt(lang), ['-V, --version', lang.msg(t('print the version'))]]),
    '',
    t('Run `{0} --help` for its options, exit codes and an example.', 'session-ledger <command>'),
    t('Exit codes: 0 ok, 1 a check blocks, 2 bad usage, 3 no agent session or no figure found (context).'),
  ]
    .map((line) => (typeof line === 'string' ? line : lang.msg(line)))
    .join('\n');
}

/**
 * When `args` (a command's arguments) ask for help: the manual to print in `lang` (a subcommand's when one is
 * named first), else null. Arguments after `--` belong to another program and are not looked at.
 */
export function helpRequest(name: string, args: readonly string[], lang: Language): string | null {
  if (!asksForHelp(args)) return null;
  const own = ownArgs(args);
  const m = MANUALS[name];
  const sub = m.sub && own[0] && Object.prototype.hasOwnProperty.call(m.sub, own[0]) ? own[0] : null;
  return sub ? manualText(`${name} ${sub}`, m.sub![sub], lang) : manualText(name, m, lang);
}
