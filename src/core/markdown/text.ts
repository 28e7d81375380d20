/**
 * Text helpers shared by the systems' readers and rules: plain text of a Markdown
 * line, template placeholders, vague next actions, clipping, and the file paths a line names.
 * Pure functions, no I/O.
 */

const PLACEHOLDER_ONLY =
  /^(?:<[^<>]*>|\{\{[^{}]*\}\}|\[[^\][]*\]|\.\.\.|…|tbd|tba|todo|n\/?a|-+|—|_+|\?+|xxx|placeholder|none yet)$/i;

const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * `s` without its trailing characters `drop` accepts, found in one pass from the end. A pattern such
 * as `[.!]+$` or `(.*?)[_*]*\s*$` is tried again from every start of a long run of those characters
 * anywhere in the line: quadratic in the run, and a line is repository content.
 */
export function trimEndWhere(s: string, drop: (c: string) => boolean): string {
  let e = s.length;
  while (e > 0 && drop(s[e - 1])) e--;
  return e === s.length ? s : s.slice(0, e);
}

/** The same from the start. */
export function trimStartWhere(s: string, drop: (c: string) => boolean): string {
  let i = 0;
  while (i < s.length && drop(s[i])) i++;
  return i === 0 ? s : s.slice(i);
}

/**
 * A `_Last updated: <value>_` line's value and what closes it: the `_`/`*` run and the white space
 * after it at the end (as `(.*?)([_*]*\s*)$` splits it, in one pass).
 */
export function timestampValue(rest: string): { value: string; after: string } {
  const value = trimEndWhere(trimEndWhere(rest, isSpace), oneOf('_*'));
  return { value, after: rest.slice(value.length) };
}

/** The characters `.` in a pattern stops at besides \n: left at a line's end by CR line breaks. */
export const LINE_ENDS = '\r\u2028\u2029';

/** A test for `trimEndWhere`: one of `chars`. */
export const oneOf =
  (chars: string) =>
  (c: string): boolean =>
    chars.includes(c);

/** A test for `trimEndWhere`: white space as `\s` and `String.prototype.trim` take it. */
export const isSpace = (c: string): boolean => c.trim() === '';

/**
 * False only when a case-insensitive pattern that needs one of `words` (lower case, every literal
 * the pattern can match; with `start`, at the text's start) cannot match `text`. The text is
 * compared lower-cased: under the `i` flag a character matches a word's letter when both fold to
 * the same letter, and folding and lower-casing differ only for characters such as `ſ` (folds to
 * `s`) or the old Cyrillic letters U+1C80–U+1C88 (to `в`, `д`, `о` …), so a text holding one of
 * those is always a maybe. Costly patterns are compiled only for the texts that may match them.
 */
export function mayHold(text: string, words: readonly string[], start = false): boolean {
  if (/[\u017f\u1c80-\u1c88]/.test(text)) return true;
  const t = text.toLowerCase();
  return words.some((w) => (start ? t.startsWith(w) : t.includes(w)));
}

/**
 * Each HTML comment of at most 2000 characters on one line replaced by a space, in one pass: what
 * /<!--.{0,2000}?-->/g does, which scans up to 2000 characters from every `<!--` of a long run.
 */
function withoutShortComments(t: string): string {
  const LINE_END = /[\n\r\u2028\u2029]/g;
  let out = '';
  let from = 0;
  let close = -1;
  let lineEnd = -1;
  for (let i = t.indexOf('<!--'); i >= 0;) {
    const body = i + 4;
    if (close < body) close = t.indexOf('-->', body);
    if (close < 0) break;
    if (lineEnd < body) {
      LINE_END.lastIndex = body;
      lineEnd = LINE_END.exec(t)?.index ?? t.length;
    }
    if (close - body <= 2000 && lineEnd >= close) {
      out += `${t.slice(from, i)} `;
      from = close + 3;
      i = t.indexOf('<!--', from);
    } else i = t.indexOf('<!--', i + 1);
  }
  return from === 0 ? t : out + t.slice(from);
}

/** Strip markup, a leading `Label:` and list/checkbox syntax, for content tests. */
export function plainText(text: string): string {
  // Each pattern runs only on a text that holds what it removes (a pattern is compiled on its first run).
  let t = text;
  if (t.includes('<!--')) t = withoutShortComments(t);
  if (t.includes('`')) t = t.replace(/`([^`]*)`/g, '$1');
  if (t.includes('**') || t.includes('__') || t.includes('~~')) t = t.replace(/\*\*|__|~~/g, '');
  if ('-*+0123456789'.includes(t.trimStart().charAt(0) || '.')) t = t.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
  if (t.trimStart().startsWith('[')) t = t.replace(/^\s*\[[ xX]\]\s+/, '');
  return t.replace(/\s+/g, ' ').trim();
}

/** True when the text is only a template placeholder (`<goal>`, `TBD`, `Files: <key files>` …). */
export function isPlaceholder(text: string): boolean {
  let t = plainText(text);
  if (t.includes('_')) t = t.replace(/^_+|_+$/g, '').trim();
  if (t === '') return true;
  // An aside after it does not fill it in: "TBD (owner: alice)", "Owner: TBD (after the review)".
  if (t.endsWith(')')) t = withoutFillerAsides(t);
  // "Label: <value>" → test the value.
  const m = t.includes(':') || t.includes('：') ? /^([^:：<>]{1,40})[:：]\s*(.*)$/.exec(t) : null;
  if (m) t = m[2].trim();
  if (t === '') return true;
  // Several placeholders in one line: "<a> / <b>", "<branch> @ <sha>".
  const tags = t.includes('<') || t.includes('{{') ? t.replace(/<[^<>]*>|\{\{[^{}]*\}\}/g, '') : t;
  if (tags.replace(/[\s,/|;·•()\-–—:.`@]+/g, '') === '') return true;
  return PLACEHOLDER_ONLY.test(trimEndWhere(t, oneOf('.!。')));
}

/** A word for "nothing here" opening the text: none, nothing, N/A, "no open issues", and the same in ja/ko/zh/ru. */
const NONE_START =
  /^(?:none|nothing|n\/a)\b|^no (?:open |known |outstanding )?(?:blockers?|issues?|pending decisions?|decisions?|risks?|problems?)\b|^(?:없음|해당 ?없음|なし|特になし|无|нет)/iu;
/** The same words as the whole text. */
const NONE_WHOLE =
  /^(?:none|nothing|n\/a|no (?:open |known |outstanding |pending )?(?:blockers?|issues?|decisions?|pending decisions?|risks?|problems?|questions?)|없음|해당 ?없음|なし|特になし|无|нет)$/iu;
const NONE_WORDS = ['no', 'n/a', '없음', '해당', 'なし', '特になし', '无', 'нет'];

/** An item that opens with a word for "nothing here" ("None — all decided", "No open issues so far"). */
export function opensWithNone(text: string): boolean {
  const t = plainText(text);
  return mayHold(t, NONE_WORDS, true) && NONE_START.test(t);
}

/**
 * An item that only says a list holds nothing ("None", "N/A (all settled)", "No open issues.", "なし"),
 * its asides aside: a statement, not template text, where a seed lets nothing be pending or open.
 */
export function isExplicitNone(text: string): boolean {
  const t = plainText(text);
  return mayHold(t, NONE_WORDS, true) && NONE_WHOLE.test(trimEndWhere(withoutAsides(t), oneOf('.!。')));
}

/**
 * `t` without the parenthetical asides that end it ("x (a) (b)" → "x"); linear: each aside is cut once.
 * An aside follows a space: `[text](path)` is a link and `f(x)` a call, neither of them an aside.
 */
export function withoutAsides(t: string): string {
  let s = t.trimEnd();
  while (s.endsWith(')')) {
    const open = s.lastIndexOf('(');
    if (open <= 0 || !/\s/.test(s[open - 1]) || s.indexOf(')', open) !== s.length - 1) break;
    s = s.slice(0, open).trimEnd();
  }
  return s;
}

/**
 * `t` without the asides that end it when they fill nothing in ("TBD (owner: alice)" → "TBD"), else `t`
 * as it is: an aside that is all of a label's value ("Next: (run `npm test`)") is that value, and one that
 * names a file, a command, a call or a test ("TODO (fix the null check in src/a.ts)") is the action itself.
 * A word that merely looks like a symbol does not fill it in: in an aside after a placeholder, `GitHub`,
 * `iOS`, `alice_smith` or `alice.smith` name a product or an owner ("TBD (waiting on GitHub)").
 */
export function withoutFillerAsides(t: string): string {
  const bare = withoutAsides(t);
  if (bare === '' || /[:：]$/.test(bare)) return t;
  const aside = t.slice(bare.length);
  // Without an aside (only the white space `withoutAsides` trims) nothing is looked for in it: the file,
  // command and test patterns find nothing in white space, and SessionStart asks this of every next action.
  return aside.trim() !== '' && namesFileCommandOrTest(aside) ? t : bare;
}

/**
 * Template text of any seed: a placeholder (`<…>`, `TBD`, empty) or a date or time pattern
 * (`YYYY-MM-DD`, `HH:MM`) standing where the real value goes.
 */
export function isTemplateValue(text: string): boolean {
  return isPlaceholder(text) || /^[YMDH]{2,4}(?:[-/.:][YMDHhms]{1,4})+$/i.test(plainText(text));
}

/**
 * A fill-in variable a template generator leaves where the value goes: a name in capitals between
 * double braces (`{{HEAD}}`, `{{ DATE }}`, `{{PROJECT_NAME}}`). Capitals only: a code template's own
 * braces (`{{ user.name }}`, JSX's `{{maxWidth: …}}`, GitHub's `${{ secrets.X }}`) are text a state file
 * may quote.
 */
const FILL_IN = /(?<!\$)\{\{\s*[A-Z][A-Z0-9_]*\s*\}\}/;

/** The first fill-in variable left in `text` (`{{HEAD}}` in `main @ {{HEAD}}`), as written, or null. */
export function unfilledVariable(text: string): string | null {
  return text.includes('{{') ? (FILL_IN.exec(text)?.[0] ?? null) : null;
}

export const VAGUE =
  /^(?:tbd|tba|todo|n\/?a|none|nothing|\.\.\.|…|-|—|\?|continue|continue (?:the )?(?:work|working|task|tasks|implementation|coding|development|where (?:we|i) left off)|keep (?:going|working)|resume(?: work)?|carry on|work on (?:it|the task|the project)|next steps?|proceed|more work|finish(?: it| up)?|wip|same as before|as planned|see above|see below|etc)\.?$/i;

/**
 * A generic "keep going" or "fix what is left" phrase. Naming where (`in X`, `on X`, `with `npm test``)
 * does not make it startable cold: the reader still does not know which change to make.
 */
export const VAGUE_HEAD = new RegExp(
  '^(?:please\\s+)?(?:' +
    // continue / resume / carry on … [the remaining work]
    '(?:continue|resume|finish|finish up|complete|wrap up|keep going|keep working|keep at it|carry on|go on|proceed|pick up|pick it up|move on|press on|push on|get back to|go back to|return to|work|working)' +
    '(?:\\s+(?:with|on|at))?(?:\\s+(?:the|this|that|my|our|any))?(?:\\s+(?:rest of(?: the)?|remaining|current|ongoing|existing|same|previous|open|pending))?' +
    '(?:\\s+(?:work|working|task|tasks|implementation|coding|development|changes|refactor|refactoring|effort|stuff|things|job|items?|session|progress|it|where (?:we|i) left off))?' +
    '|' +
    // fix / finish / address … the remaining issues, the rest, any problems
    '(?:fix|fix up|address|handle|resolve|finish|finish up|complete|clean up|tidy up|wrap up|sort out|deal with|look at|look into|go through|work through|polish|tackle|do)' +
    '(?:\\s+(?:the|any|all(?: of)?(?: the)?|whatever|what(?:ever)? is))?' +
    '(?:\\s+(?:rest(?: of(?: the)?)?|remaining|outstanding|leftover|left|other|open|pending|last|final|various|some|few))' +
    '(?:\\s+(?:issues?|problems?|bugs?|errors?|failures?|todos?|items?|things?|stuff|work|tasks?|bits|parts|details|loose ends|nits|warnings|tests|cases))?' +
    '|' +
    '(?:fix|fix up|address|handle|resolve|clean up|sort out|deal with|look at|look into|go through|work through|tackle)' +
    '(?:\\s+(?:the|any|all(?: of)?(?: the)?))?\\s+(?:issues|problems|bugs|errors|failures|todos|things|stuff|items|nits|warnings)' +
    ')' +
    // an optional "in / on / with / for X" naming only where: at most six words, no further clause
    '(?:\\s+(?:in|on|with|at|for|from|inside|within|of|across|around|to|left in|left on)\\s+(?:\\S+)(?:\\s+\\S+){0,5})?$',
  'i',
);

/** The words VAGUE_HEAD's phrases start with (after an optional "please"): only a text starting with one is tested. */
const VAGUE_HEAD_FIRST = new Set(
  'continue resume finish complete wrap keep carry go proceed pick move press push get return work working fix address handle resolve clean tidy sort deal look polish tackle do'.split(
    ' ',
  ),
);

/** The first word of VAGUE's phrases (a trailing `.` aside): only a text starting with one is tested. */
const VAGUE_FIRST = new Set(
  'tbd tba todo n/a na none nothing ... … - — ? continue keep resume carry work next proceed more finish wip same as see etc'.split(
    ' ',
  ),
);

/**
 * The first word of `t` (up to white space), lower-cased, "please" skipped. Only ASCII letters match
 * case-insensitively under the `i` flag without `u`, so a phrase of VAGUE or VAGUE_HEAD can match
 * only when this word is one of their first words (the sets above): those patterns, costly to
 * compile, are compiled only for a text that may match.
 */
function firstWord(t: string): string {
  const [a, b] = t.split(/\s+/, 2);
  const w = a.toLowerCase();
  return w === 'please' ? (b ?? '').toLowerCase() : w;
}

/** False only when VAGUE cannot match `t`. */
export function mayBeVague(t: string): boolean {
  const first = t.split(/\s/, 1)[0].toLowerCase();
  return VAGUE_FIRST.has(first) || VAGUE_FIRST.has(first.replace(/\.$/, ''));
}

/** False only when VAGUE_HEAD cannot match `t` (trimmed). */
export function mayBeVagueHead(t: string): boolean {
  return VAGUE_HEAD_FIRST.has(firstWord(t));
}

/** The same in Japanese and Korean: "X の作業を続ける", "X 계속 진행". */
const VAGUE_CJK =
  /^.{0,30}?(?:作業を?)?(?:続ける|続行する?|継続する?|再開する?|続きをやる|残りを(?:直す|片付ける|やる)|계속(?:하기|한다| ?진행(?:하기|한다)?)?|이어서 (?:작업|진행)(?:하기|한다)?|나머지(?:를)? (?:수정|처리)(?:하기|한다)?)[。.]?$/;

/** A next action that cannot be started cold: empty, a placeholder, "continue work", "fix the remaining issues in X". */
export function isVagueAction(text: string | null | undefined): boolean {
  if (text == null) return true;
  const t = plainText(text)
    .replace(/^(?:now|next|next action|now ▶|▶)\s*[:：▶]?\s*/i, '')
    .trim();
  if (isPlaceholder(t)) return true;
  if (mayBeVague(t) && VAGUE.test(t)) return true;
  // The urgency/priority tags a system appends ("(urgency: H)", "· risk: M") do not make a phrase concrete.
  const bare = trimEndWhere(
    t
      .replace(/\s*[(\[]?\s*(?:urgency|priority|risk)\s*[:：]\s*[HML]\s*[)\]]?\s*$/i, '')
      .replace(/^\[[^\]]{0,40}\]\s*/, ''),
    oneOf('.!。:'),
  ).trim();
  if ((mayBeVagueHead(bare) && VAGUE_HEAD.test(bare)) || VAGUE_CJK.test(bare)) return true;
  const cjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(t);
  if (cjk) return t.replace(/\s+/g, '').length < 4;
  // A letter or digit: ASCII ones answered without the Unicode property classes (costly to compile).
  const wordy = (w: string) =>
    /[A-Za-z0-9]/.test(w) || (!ASCII_RE.test(w) && (letterOrDigit ??= new RegExp('[\\p{L}\\p{N}]', 'u')).test(w));
  return t.split(/\s+/).filter(wordy).length < 2;
}

/** A letter or a digit of any script: built on its first use (a `\p{…}` literal builds ICU's set whenever the script is parsed). */
let letterOrDigit: RegExp | undefined;

export function clip(s: string, n = 120): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/** What a cut text must not end on before its ellipsis: a comma, semicolon, colon, dash or opening bracket. */
const DANGLING = /[\s,;:、，；：\-–—(\[{（「『]+$/u;

/**
 * `s` on one line, at most `n` characters: a longer text is cut at the last word boundary that
 * fits, never inside a word (a single word longer than half of `n` is cut inside it), and ends with
 * an ellipsis. What the cut leaves dangling at its end (a comma, a semicolon, a colon, a dash, an
 * opening bracket) goes before the ellipsis; a code span it leaves open is closed after it.
 */
export function clipAtWord(s: string, n = 120): string {
  const t = s.replace(/\s+/g, ' ').trim();
  if (t.length <= n) return t;
  const cut = (m: number): string => {
    let room = t.slice(0, m - 1);
    if (t[m - 1] !== ' ') {
      const space = room.lastIndexOf(' ');
      if (space >= (m - 1) / 2) room = room.slice(0, space);
    }
    return room.replace(DANGLING, '');
  };
  const open = (x: string): boolean => (x.match(/`/g)?.length ?? 0) % 2 === 1;
  const kept = cut(n);
  if (!open(kept)) return `${kept}…`;
  // A code span the cut leaves open is closed after the ellipsis (within `n`): an unclosed backtick shows as itself.
  const shorter = cut(n - 1);
  return open(shorter) ? `${shorter}…\`` : `${shorter}…`;
}

/** Extract file-like paths from a line of text: `code spans`, Markdown links, bare `dir/file.ext`. */
export function extractPaths(text: string): string[] {
  const out = new Set<string>();
  const add = (p: string) => {
    let t = trimStartWhere(trimEndWhere(p.trim(), oneOf(`"')>,;:.`)), oneOf(`"'(<`));
    t = t.replace(/#L?\d+(?:-L?\d+)?$/, '').replace(/:\d+(?::\d+)?$/, '');
    if (!t || /^[a-z][a-z0-9+.-]*:\/\//i.test(t) || t.startsWith('mailto:') || t.startsWith('#')) return;
    if (/[\s*?{}<>|]/.test(t)) return;
    if (t.startsWith('~') || t.startsWith('$')) return;
    if (!/[./]/.test(t)) return;
    if (/^\d+(?:\.\d+)*$/.test(t)) return; // version numbers
    if (!/\.[A-Za-z0-9]{1,8}$/.test(t) && !t.endsWith('/')) return; // need an extension or a trailing slash
    out.add(t);
  };
  // Bounded repeats: a line of thousands of unclosed `[` must not take quadratic time. safeDecode never throws (decodeURI does).
  for (const m of text.matchAll(/\[[^\][]{0,1000}\]\(([^()\s]{1,1000})\)/g)) add(safeDecode(m[1]));
  for (const m of text.matchAll(/`([^`]+)`/g)) add(m[1]);
  const bare = text.replace(/`[^`]*`/g, ' ').replace(/\[[^\][]{0,1000}\]\([^()]{0,1000}\)/g, ' ');
  for (const m of bare.matchAll(
    /(?:^|[\s(,])((?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?|[\w-]+\.(?:md|ts|tsx|js|mjs|cjs|py|rs|go|json|ya?ml|toml|sh|sql|css|html))(?=$|[\s),;:])/g,
  ))
    add(m[1]);
  return [...out];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Commands a next action names by the tool that runs them (`run pytest`, `git push`, `npm test`). A tool
 * whose name is an everyday word (`make`, `just`, `bundle`, `node`) is one only where it reads as a command:
 * after `run`, `rerun` (`Run`, `Rerun` opening the sentence) or `$`, before a flag or one of its
 * subcommands (`bundle exec`), `make` before a target every Makefile names (`make test`, `make lint`)
 * or a variable (`make V=1`), or `just` before such a recipe that ends its clause (`just test`, `just
 * lint, then commit`, `just test && git push`), since "make sure the build passes", "just wait for the
 * review", "just test the limiter with Bob" and "the node is down" run nothing.
 */
const TOOL_RE =
  /(?:^|[\s(])(?:npm|npx|pnpm|yarn|bun|deno|git|gh|pytest|python3?|pip|uv|cargo|go (?:test|run|build)|docker|kubectl|helm|terraform|gradle|\.\/gradlew|mvn|dotnet|rake|rails|composer|php|ruby|curl|bash|sh|tox|nox|(?:[Rr]erun|[Rr]un|\$)\s+(?:make|just|bundle|node)|make\s+(?:test|tests|check|lint|build|install|clean|dist|fmt|format|typecheck|coverage|bench|e2e|ci|docs|release|deploy|[A-Z][A-Z0-9_]*=\S*)|just\s+(?:test|tests|check|lint|build|fmt|format|typecheck|coverage|bench|e2e|ci)(?=$|[),.;:]| &&| --?[A-Za-z])|(?:make|just|bundle|node)\s+--?[A-Za-z][\w-]*|bundle\s+(?:exec|install|update|add))(?=$|[\s),.;:])/;

const WORD_CHAR = /[A-Za-z0-9_]/;
const NAME_START = /[A-Za-z_$]/;
const NAME_CHAR = /[\w$]/;

/**
 * Whether `t` names a call, `fn()` or `obj.fn()`: what /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(\)/
 * matches, in one pass. That pattern scans a dotted chain again from each of its names, so a long line
 * of `a.a.a.…` took time with the square of its length. Each run of name characters is looked at once:
 * a name may start in it where a word starts (or right after the `.` that ends a chain that holds), and
 * a chain that holds and is followed by `()` is a call.
 */
function namesCall(t: string): boolean {
  const word = (i: number) => i >= 0 && i < t.length && WORD_CHAR.test(t[i]);
  let chainEnd = -1; // where the last run that holds a chain ended (its `.` follows there)
  for (let s = 0; s < t.length;) {
    if (!NAME_CHAR.test(t[s])) {
      s++;
      continue;
    }
    let e = s;
    while (e < t.length && NAME_CHAR.test(t[e])) e++;
    const afterChain = s >= 1 && t[s - 1] === '.' && chainEnd === s - 1;
    let holds = false;
    for (let p = s; p < e && !holds; p++)
      holds = NAME_START.test(t[p]) && (word(p - 1) !== word(p) || (p === s && afterChain));
    if (holds && t.startsWith('()', e)) return true;
    chainEnd = holds ? e : -1;
    s = e;
  }
  return false;
}

/**
 * Whether `text` names a file (a path), a command (a code span, or a tool such as `npm`, `pytest`,
 * `git`), a call (`fn()`, `obj.fn()`) or a test by its quoted name: what a word alone cannot be.
 */
function namesFileCommandOrTest(text: string): boolean {
  if (/`[^`]+`/.test(text)) return true;
  if (extractPaths(text).some((p) => !DOTTED_PRODUCTS.has(p))) return true; // Node.js is no file
  const t = plainText(text);
  if (TOOL_RE.test(t)) return true;
  if (namesCall(t)) return true; // fn(), obj.fn()
  if (/\btests?\b[^"“”«»]{0,40}["“«][^"”»]{2,200}["”»]|["“«][^"”»]{2,200}["”»]\s*(?:test|spec)\b/i.test(t)) return true; // the test "name"
  return false;
}

/**
 * Two-part PascalCase names of products, platforms and services that notes name as often as code:
 * "Wait on GitHub" or "Port it to TypeScript" names nothing the reader can open or run.
 */
const PRODUCTS = new Set(
  (
    'GitHub GitLab BitBucket JavaScript TypeScript CoffeeScript PowerShell YouTube LinkedIn WordPress WooCommerce ' +
    'PayPal DevOps DigitalOcean CloudFlare CloudFront CloudWatch CloudFormation DropBox OneDrive SharePoint ' +
    'PowerPoint WhatsApp WeChat TikTok FaceTime MacBook AirPods PlayStation TestFlight PyCharm WebStorm PhpStorm ' +
    'RubyMine GoLand DataGrip JetBrains NuGet CocoaPods RubyGems HomeBrew StackOverflow ElasticSearch OpenSearch ' +
    'OpenShift OpenStack OpenTelemetry ClickHouse BigQuery DataDog PagerDuty SendGrid MailChimp HubSpot SalesForce ' +
    'ServiceNow ZenDesk VirtualBox RedHat LibreOffice FireFox TensorFlow PyTorch NumPy SciPy JupyterLab LangChain ' +
    'LlamaIndex HuggingFace DeepSeek DeepMind SageMaker EventBridge SoundCloud SnapChat YouTrack ClickUp MinIO SwiftUI OpenID ' +
    'FastAPI OpenAPI AsyncAPI WebAPI'
  ).split(' '),
);

/**
 * Products and platforms whose names hold a dot, as their makers write them: "Upgrade to ASP.NET Core" or
 * "Rewrite it in Node.js" names no member and no file (a file called `node.js` is written in small letters).
 */
const DOTTED_PRODUCTS = new Set(
  (
    'ASP.NET ADO.NET VB.NET Node.js Vue.js Next.js Nuxt.js Express.js React.js Three.js D3.js Chart.js Ember.js ' +
    'Backbone.js Alpine.js Nest.js Socket.IO'
  ).split(' '),
);

/**
 * The last labels of domains that no code member is named after (`example.com`, `docs.example.edu`), in small
 * letters: `System.IO` and `System.Net` are namespaces, a domain opening a name (`com.example.app`) is a
 * package, and `ctx.io`, `stat.dev`, `electron.app`, `logger.info` and `messages.de` are members. `net` and
 * `org` are not among them: they name members as often as sites (an amount net of tax `cart.net`, a
 * model's network `model.net.fc`, a user's organisation `user.org.id`, an Org-mode file `TODO.org`).
 */
const TOP_LEVEL_DOMAINS = new Set('com edu gov'.split(' '));

/** The second-level labels under a country's domain (`example.co.uk`, `example.com.au`); not `net` or `org`, as above. */
const SECOND_LEVEL_DOMAINS = new Set('co com ac gov edu'.split(' '));

/** The names of an object's own members: `self.net` or `this.app` is a member, not a domain. */
const RECEIVERS = new Set('self this cls super'.split(' '));

/**
 * Whether `name`, a dotted name, is a domain written alone (`example.com`, `status.github.com`, `Amazon.com`):
 * a site, as a product names one, that the reader can neither open nor run. An address around it is not
 * alone: a URL (`https://example.com`), a path (`example.com/docs`), a port or a remote's path
 * (`example.com:8080`, `git@github.com:acme/x.git`), or a user at a host (`deploy@prod.example.com`, which
 * an e-mail address is written as too).
 */
function isBareDomain(name: string, before: string, after: string, afterNext: string): boolean {
  if (before === '/' || before === '@' || after === '/' || (after === ':' && /\S/.test(afterNext))) return false;
  const labels = name.split('.');
  const last = labels[labels.length - 1];
  const top =
    TOP_LEVEL_DOMAINS.has(last) ||
    (labels.length >= 3 && /^[a-z]{2}$/.test(last) && SECOND_LEVEL_DOMAINS.has(labels[labels.length - 2]));
  return (
    labels.length >= 2 &&
    top &&
    !TOP_LEVEL_DOMAINS.has(labels[0]) &&
    !SECOND_LEVEL_DOMAINS.has(labels[0]) &&
    !RECEIVERS.has(labels[0]) &&
    labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l))
  );
}

/**
 * Whether `t` names a member (`Type.member`, `Convert.ToByte`, `Number.isNaN`): two names of two or more
 * letters and digits joined by a dot, in a dotted name that is neither a product (DOTTED_PRODUCTS) nor a
 * domain written alone. Each run of name characters and dots is looked at once.
 */
function namesMember(t: string): boolean {
  for (const m of t.matchAll(/[\w.-]+/g)) {
    if (!/\b[A-Za-z][A-Za-z0-9]+\.[A-Za-z][A-Za-z0-9]+\b/.test(m[0])) continue;
    const name = trimEndWhere(m[0], oneOf('.-'));
    const end = m.index + name.length;
    if (DOTTED_PRODUCTS.has(name) || isBareDomain(name, t.charAt(m.index - 1), t.charAt(end), t.charAt(end + 1)))
      continue;
    return true;
  }
  return false;
}

/**
 * Products and platforms written with a small first letter; any other camelCase word is code, however
 * short its first part (`xAxis`, `vNode`, `eTag`, `getOS`).
 */
const LOWER_FIRST_PRODUCTS = new Set(
  'iOS iPadOS iPhone iPad iPod iMac iCloud iTunes iMessage iWork eBay jQuery macOS watchOS tvOS visionOS'.split(' '),
);

/** The capitals that end a code name far more often than a product's (`UserID`, `BaseURL`, `OrderDTO`, `ParseJSON`). */
const CODE_TAILS = new Set([
  'ID',
  'IDS',
  'URL',
  'URLS',
  'URI',
  'UUID',
  'DTO',
  'DAO',
  'JSON',
  'XML',
  'HTML',
  'CSV',
  'UI',
  'IO',
  'IP',
  'API',
  'APIS',
]);

/**
 * The first words of a function's name (`IsNaN`, `HasTLS`, `ParseSQL`, `ToUTC`): a PascalCase word that opens
 * with one of them is code, whatever capitals end it.
 */
const CODE_HEADS = new Set(
  'Is Has Get Set To From As Can Should Must New Parse Load Read Write Create Update Delete Find Fetch Init Try Validate Convert Encode Decode Render Handle Compute'.split(
    ' ',
  ),
);

/**
 * Whether a camelCase or PascalCase word is a product, a platform or a proper name rather than code.
 * A camelCase word is code (`queueReminder`, `toJSON`, `xAxis`) unless LOWER_FIRST_PRODUCTS names it
 * (`iOS`, `iPhone`, `eBay`, `jQuery`, `macOS`). A PascalCase word of two parts ending in capitals is a
 * product or an abbreviation (`PostgreSQL`, `MongoDB`, `LaTeX`, `NaN`) unless those capitals end code
 * names (CODE_TAILS: `UserID`, `BaseURL`, `UserAPI`) or its first word opens a function's name
 * (CODE_HEADS: `IsNaN`, `ParseSQL`), and PRODUCTS lists the ones in words (`GitHub`, `TypeScript`) and
 * the products whose capitals end code names (`FastAPI`).
 */
function isProductName(w: string): boolean {
  if (/^[a-z]/.test(w)) return LOWER_FIRST_PRODUCTS.has(w);
  if (PRODUCTS.has(w)) return true;
  const m = /^([A-Z][a-z0-9]+)(?:[A-Z][a-z0-9]+)?([A-Z]+)$/.exec(w);
  return m !== null && !CODE_TAILS.has(m[2]) && !CODE_HEADS.has(m[1]);
}

/**
 * A next action concrete enough to start cold, tested positively: it names a file (a path), a
 * command (a code span, or a tool such as `npm`, `pytest`, `git`), a symbol (`fn()`, `camelCase`,
 * `PascalCase.member`, `snake_case`, a `--flag`) or a test by its quoted name. "Keep going on the
 * alerts" names none of them: it is vague even though no stop-list word says so. Nor does a product,
 * a platform or a site whose name merely looks like a symbol (isProductName, DOTTED_PRODUCTS,
 * isBareDomain): "Wait on GitHub", "Check with the iOS team", "Port it to ASP.NET", "Point the DNS at
 * example.com" say nothing the reader can open or run. A snake_case name is code even when it names a
 * person (`alice_smith`): a list of given names would also take `adam_optimizer` or `hugo_config`.
 */
export function isConcreteAction(text: string): boolean {
  if (namesFileCommandOrTest(text)) return true;
  const t = plainText(text);
  // camelCase, PascalCase
  for (const m of t.matchAll(/\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g))
    if (!isProductName(m[0])) return true;
  if (namesMember(t)) return true; // Type.member, Convert.ToByte
  if (/\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.test(t)) return true; // snake_case, SCREAMING_CASE
  if (/(?:^|[\s(])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?=$|[\s),.;:=])/.test(t)) return true; // --flag
  return false;
}

/**
 * A number with comma thousands separators and at most three decimals, as `toLocaleString('en-US')`
 * writes it, without loading ICU's locale data (30 ms on the first call: a hook pays it on every run).
 */
export function withThousands(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const [int, frac] = Math.abs(Math.round(x * 1000) / 1000)
    .toString()
    .split('.');
  return `${x < 0 && (int !== '0' || frac) ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

/** Order strings by UTF-16 code units: stable across machines, and no ICU collator to load (14 ms on first use). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The number of Unicode code points in `s` (what `[...s].length` counts: a surrogate pair is one),
 * without building an array of every character: on a 4 MB state file that array was most of a
 * budget check's time and garbage.
 */
export function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
