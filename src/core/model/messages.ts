/**
 * Messages with ids, for translation. Every check message, fix hint and finding is built with
 * `t(template, ...args)`: the template is the English text with `{0}`, `{1}` … where the arguments
 * go (as `vscode.l10n.t` takes them), and it is the message's id. The extension renders the id and
 * the arguments through `vscode.l10n` in the user's language; the CLI prints the English text, or
 * (`Language`) the same ids through the extension's bundle of the user's locale.
 *
 * `t` takes a string literal only (a computed string is a type error), so every template appears
 * literally in the sources as `t('…')`: `scripts/messages.mjs` lists them all, and a test checks
 * that every check and finding carries one of them.
 */
import { isSessionItem, type Check, type Finding, type Said, type SaidPart, type SystemId } from './model';

/** A message: its id (the English template), its arguments, and the English text. */
export interface Msg {
  readonly id: string;
  readonly args: readonly string[];
  readonly text: string;
  /** Arguments that are messages themselves (`(none)`), by position: a UI translates them too; `args` holds their English. */
  readonly parts?: ReadonlyArray<Msg | null>;
}

/** A string literal type; a computed `string` does not fit, so templates stay greppable. */
export type Literal<T extends string> = string extends T ? never : T;

/** Fill `{0}`, `{1}` … with the arguments; other braces are left as written. */
export function format(template: string, args: readonly string[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? args[Number(i)] : m));
}

/** A message from its English template (a string literal) and its arguments (a message as an argument is translated with it). */
export function t<T extends string>(template: Literal<T>, ...args: Array<string | number | Msg>): Msg {
  // A message is one line: a line break in an argument (a file name, a configured path) is shown as `\n`.
  const a = args.map((x) => (typeof x === 'object' ? x.text : oneLine(String(x))));
  const m = { id: template, args: a, text: format(template, a) };
  return args.some((x) => typeof x === 'object')
    ? { ...m, parts: args.map((x) => (typeof x === 'object' ? x : null)) }
    : m;
}

/** A message in a language: `tr` (vscode.l10n.t, or the identity for English) applied to it and to each message argument. */
export function render(m: Msg, tr: (id: string, ...args: string[]) => string): string {
  return tr(m.id, ...m.args.map((a, i) => (m.parts?.[i] ? render(m.parts[i] as Msg, tr) : a)));
}

/** The fields of a check or finding that carry a message and its hint. */
export function said(message: Msg, hint?: Msg): Said {
  const out: Said = { message: message.text, messageId: message.id, args: [...message.args] };
  if (message.parts) out.argMsgs = partsOf(message.parts);
  if (hint) {
    out.hint = hint.text;
    out.hintId = hint.id;
    out.hintArgs = [...hint.args];
    if (hint.parts) out.hintArgMsgs = partsOf(hint.parts);
  }
  return out;
}

/** The message fields of `x` alone (a finding turned into a check). */
export function saidOf(x: Said): Said {
  const out: Said = { message: x.message, messageId: x.messageId, args: [...x.args] };
  if (x.argMsgs) out.argMsgs = [...x.argMsgs];
  if (x.hint !== undefined) {
    out.hint = x.hint;
    if (x.hintId !== undefined) out.hintId = x.hintId;
    if (x.hintArgs !== undefined) out.hintArgs = [...x.hintArgs];
    if (x.hintArgMsgs) out.hintArgMsgs = [...x.hintArgMsgs];
  }
  return out;
}

/** The message a check or finding says, as a message (its message arguments along). */
export function saidMsg(x: Pick<Said, 'message' | 'messageId' | 'args' | 'argMsgs'>): Msg {
  const m: Msg = { id: x.messageId, args: x.args, text: x.message };
  return x.argMsgs ? { ...m, parts: x.argMsgs.map((p) => p && saidMsg(p)) } : m;
}

/** The fix hint of a check or finding as a message, or undefined when it has none (or none with an id). */
export function hintMsg(x: Pick<Said, 'hint' | 'hintId' | 'hintArgs' | 'hintArgMsgs'>): Msg | undefined {
  if (x.hint === undefined || x.hintId === undefined) return undefined;
  return saidMsg({ message: x.hint, messageId: x.hintId, args: x.hintArgs ?? [], argMsgs: x.hintArgMsgs });
}

/** The fix hint of a check or finding in `lang` (empty when it has none). */
export function sayHint(lang: Language, x: Pick<Said, 'hint' | 'hintId' | 'hintArgs' | 'hintArgMsgs'>): string {
  const m = hintMsg(x);
  return m ? lang.msg(m) : (x.hint ?? '');
}

/** Message arguments as a check or finding keeps them (see `Said.argMsgs`). */
function partsOf(parts: ReadonlyArray<Msg | null>): Array<SaidPart | null> {
  return parts.map((m) => {
    if (!m) return null;
    const p: SaidPart = { message: m.text, messageId: m.id, args: [...m.args] };
    if (m.parts) p.argMsgs = partsOf(m.parts);
    return p;
  });
}

/** A finding: a problem found while reading a document. */
export function finding(id: string, severity: Finding['severity'], message: Msg, line?: number, hint?: Msg): Finding {
  const f: Finding = { id, severity, ...said(message, hint) };
  if (line !== undefined) f.line = line;
  return f;
}

/**
 * Checks as a message names them (a refused checkpoint, the warning after a go-signal that no longer
 * holds), in the words the checklist and the tree show for them: each check's
 * message after its system's id (`S3: Now ▶ is empty.`), as a message a UI says in its language with
 * each check's own message. A message several systems give is named once, after their ids (`S0, S1:
 * Empty file …`); a manual item about the session (`isSessionItem`) by its message alone, once.
 */
export function checksNamed(checks: ReadonlyArray<Pick<Check, 'system' | 'id' | 'severity' | keyof Said>>): Msg {
  const groups = new Map<string, { systems: SystemId[]; check: Pick<Check, keyof Said>; session: boolean }>();
  for (const c of checks) {
    const key = JSON.stringify([c.messageId, c.args]);
    const g = groups.get(key);
    if (!g) groups.set(key, { systems: [c.system], check: c, session: isSessionItem(c) });
    else if (!g.systems.includes(c.system)) g.systems.push(c.system);
  }
  const named = [...groups.values()].map((g): Msg => {
    const said = saidMsg(g.check);
    return g.session ? said : t('{0}: {1}', g.systems.join(', '), said);
  });
  if (!named.length) return t('(none)');
  return named.reduceRight((rest, m) => t('{0} {1}', m, rest));
}

export function isMsg(x: unknown): x is Msg {
  return (
    !!x &&
    typeof x === 'object' &&
    typeof (x as Msg).id === 'string' &&
    Array.isArray((x as Msg).args) &&
    typeof (x as Msg).text === 'string'
  );
}

/**
 * A path as a message names it: a line break in it (a file name or a configured path may hold one)
 * is shown as `\n` (`\r` as `\r`), so no line of the message comes from the repository.
 */
export function oneLine(p: string): string {
  return p.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/**
 * A language the command-line tool prints in: the extension's translations of the message ids (its
 * l10n bundle of that language), or none (English). What has no translation stays as written.
 */
export interface Language {
  /** `english` in this language: the translation of `id` filled with `args`, or `english` itself when there is none. */
  say(english: string, id?: string, args?: readonly string[]): string;
  /** A message in this language (a message argument, such as `(none)`, translated too). */
  msg(m: Msg): string;
  /** The program the commands it names start with (`invokedAs`); `PROGRAM` when not given. */
  program?: string;
}

/** English: every text as written. */
export const ENGLISH: Language = { say: (english) => english, msg: (m) => m.text };

/** The language of a table of translations (an l10n bundle's entries: id → template); an entry that is not a string counts as none. */
export function languageOf(table: Readonly<Record<string, unknown>>): Language {
  const say = (english: string, id?: string, args: readonly string[] = []): string => {
    const tr = id !== undefined && Object.prototype.hasOwnProperty.call(table, id) ? table[id] : undefined;
    return typeof tr === 'string' ? format(tr, args) : english;
  };
  return { say, msg: (m) => render(m, (id, ...args) => say(format(id, args), id, args)) };
}

/**
 * The program a message's command starts with, as the messages say it: `session-ledger`, the command
 * the npm package installs (what the extension shows). A message naming a command takes it as an
 * argument standing first in a code span (`` `{0} attest` ``), so the command-line tool can name itself
 * as it was run instead (`invokedAs`).
 */
export const PROGRAM = 'session-ledger';

/**
 * `lang`, with the program of every command its messages name (an argument that is `PROGRAM` and
 * stands first in a code span of the template) said as `cli`: how the user ran the command-line tool
 * (`node ~/proj/.claude/hooks/session-ledger.cjs` when no `session-ledger` is on PATH).
 */
export function invokedAs(lang: Language, cli: string): Language {
  if (cli === PROGRAM) return lang;
  const say = (english: string, id?: string, args: readonly string[] = []): string => {
    if (id === undefined) return lang.say(english, id, args);
    const named = args.map((a, i) => (a === PROGRAM && id.includes(`\`{${i}} `) ? cli : a));
    return named.some((a, i) => a !== args[i]) ? lang.say(format(id, named), id, named) : lang.say(english, id, args);
  };
  return { say, msg: (m) => render(m, (id, ...args) => say(format(id, args), id, args)), program: cli };
}
