/**
 * Secrets and personal data in state files: API keys, tokens, private keys, passwords in URLs and
 * assignments (whatever characters the value holds), e-mail addresses, phone numbers, payment card
 * numbers, US social security numbers and postal addresses. A state file is tracked and travels with the repository: none of them belongs in it.
 *
 * Found values are masked AT THE MODEL: `maskSecrets` runs when a document is loaded, before it is
 * parsed, so the document's text, its section titles and item texts, the next action, the JSON,
 * the checklist, the SessionStart context and the resume prompt only ever hold the masked form
 * (`ghp_… (40 chars)`). The document's hash still comes from the raw bytes.
 *
 * Time is linear in the input, whatever it holds: every pattern is either anchored on a literal
 * prefix with no failing unbounded scan after it, or is a small hand-written scanner (JWTs, URLs
 * with credentials, private key blocks) that looks at each character a bounded number of times.
 * Lines of any length are scanned.
 */
import { asMasked, MAY_BE_FORMAT, MAY_BE_MARK } from '../markdown/format-chars';

export interface SecretHit {
  rule: string;
  /** `personal` for personal data (e-mail, phone, card or social security number, postal address); absent for a credential. */
  kind?: 'personal';
  /** 1-based line. */
  line: number;
  /** The masked form that replaces the value: a few leading characters and the length. */
  masked: string;
}

interface Span {
  rule: string;
  kind?: 'personal';
  /** Where the whole match starts (a key name before the value included): placeholders are judged on it. */
  from: number;
  /** Offsets in the line of the value to mask. */
  start: number;
  end: number;
  /** How many leading characters stay visible (a public prefix such as `ghp_`), 0 for passwords. */
  keep: number;
  /** A part of a value that runs over a line break (`acrossBreak`): the hit is `hit` (the whole value's), or none. */
  part?: { hit: string | null };
}

export interface RegexRule {
  name: string;
  /** Global; group 1 (when present) is the value, else the whole match. */
  re: RegExp;
  keep: number;
  /** A further test of the value (the match stands when absent). */
  value?: (v: string) => boolean;
  kind?: 'personal';
  /**
   * False only when no line of the text can match (the literal text every match holds is missing):
   * the rule's expression, costly to compile, is then neither compiled nor run. Asked of the whole
   * text, then of each line of a text that passed.
   */
  may: (text: string) => boolean;
  /**
   * A line and the next may make a match between them (`acrossBreak`) when `may` holds for neither: the first
   * holds where the match starts (a secret's name) and the second the rest (`=` and the value). Absent when
   * every match over a break holds the literal `may` looks for on one of the two lines.
   */
  across?: (before: string, after: string) => boolean;
}

/** The text holds one of `words` (case-sensitive). */
const holds = (text: string, words: readonly string[]) => words.some((w) => text.includes(w));
/** The text holds one of `words` (lower-case ASCII), ASCII letters compared without case, as the `i` flag without `u` compares them. */
const holdsAnyCase = (text: string, words: readonly string[]) => holds(text.toLowerCase(), words);

/** A value is any run of characters up to white space, a quote, a backtick or an angle bracket: `Qz7#wR4$x!` is one value. */
const VALUE = '[^\\s"\'`<>]';

/**
 * A value that looks generated rather than a word (`SORT_KEY=created_at` is a setting, `KEY=Qz7#wR4$…`
 * a secret): three of lower case, upper case, digits and other signs, or 20+ characters with two.
 */
function looksGenerated(v: string): boolean {
  let classes = 0;
  if (/[a-z]/.test(v)) classes++;
  if (/[A-Z]/.test(v)) classes++;
  if (/[0-9]/.test(v)) classes++;
  if (/[^A-Za-z0-9_./-]/.test(v)) classes++;
  return classes >= 3 || (classes >= 2 && v.length >= 20);
}

/** Not preceded by a letter or digit: `_` and `-` may stand before a token (`DB_PASSWORD`, `x-ghp_…`). */
const START = '(?<![A-Za-z0-9])';

/** A literal every postal address below holds: a street type, a street suffix, a foreign street word, `〒`. */
const STREET_WORDS = [
  ...['Street', 'St.', 'Avenue', 'Ave', 'Road', 'Rd.', 'Boulevard', 'Blvd', 'Lane', 'Ln.', 'Drive', 'Dr.'],
  ...['Court', 'Ct.', 'Place', 'Pl.', 'Parkway', 'Pkwy', 'Terrace', 'Square', 'Highway', 'Hwy'],
  ...['straße', 'strasse', 'str.', 'weg', 'gasse', 'platz', 'allee', 'damm', 'ufer'],
  ...['Rue ', 'Calle ', 'Via ', 'Rua ', '〒'],
];

/** The literal each token of the API token rule starts with (`SK` for Twilio's). */
const API_TOKEN_PREFIXES = [
  ...['AGE-SECRET-KEY-1', 'gsk_', 'xai-', 'shpat_', 'shpca_', 'shppa_', 'shpss_', 'glrt-', 'gldt-', 'glptt-', 'glft-'],
  ...[
    'gloas-',
    'ntn_',
    'lin_api_',
    'r8_',
    'dckr_pat_',
    'GOCSPX-',
    'ATATT3',
    'sntrys_',
    'sntryu_',
    'hvs.',
    'hvb.',
    'SK',
  ],
];

/**
 * A prefixed token's characters after its prefix look generated: two of lower case, upper case and
 * digits. A name written after a prefix (`hvs.default_token_policy`, `glrt-runner-registration-docs`)
 * holds one; a token's random part, of 20 characters or more, holds two.
 */
function tokenBodyGenerated(v: string): boolean {
  const prefix = API_TOKEN_PREFIXES.find((p) => v.startsWith(p)) ?? '';
  const body = v.slice(prefix.length);
  return +/[a-z]/.test(body) + +/[A-Z]/.test(body) + +/[0-9]/.test(body) >= 2;
}

/** Base64 that decodes to `user:password` in printable ASCII (what HTTP basic authentication sends). */
function decodesToCredentials(v: string): boolean {
  try {
    return /^[\x21-\x39\x3b-\x7e][\x20-\x7e]*:[\x20-\x7e]+$/.test(atob(v));
  } catch {
    return false;
  }
}

/** What YAML may write between a key's `:` and its value: up to two of a tag (`!!str`), an anchor (`&k`), a block scalar's indicator (`|`, `>-`), each followed by a space. */
const YAML_PROPERTIES = '(?:(?:![^\\s]{0,64}|&[^\\s]{1,64}|[|>][-+0-9]{0,2})[ \\t]{1,16}){0,2}';

export const REGEX_RULES: readonly RegexRule[] = [
  {
    name: 'AWS access key',
    re: new RegExp(`${START}(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])`, 'g'),
    keep: 4,
    may: (x) => holds(x, ['AKIA', 'ASIA']),
  },
  {
    name: 'GitHub token',
    re: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`, 'g'),
    keep: 4,
    may: (x) => holds(x, ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']),
  },
  {
    name: 'Anthropic API key',
    re: new RegExp(`${START}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('sk-ant-'),
  },
  {
    name: 'OpenAI API key',
    re: new RegExp(`${START}sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('sk-'),
  },
  {
    name: 'Slack token',
    re: new RegExp(`${START}xox[abprs]-[A-Za-z0-9-]{10,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('xox'),
  },
  {
    name: 'Google API key',
    re: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g'),
    keep: 4,
    may: (x) => x.includes('AIza'),
  },
  {
    name: 'Stripe key',
    re: new RegExp(`${START}(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,}`, 'g'),
    keep: 4,
    may: (x) => holds(x, ['_live_', '_test_']),
  },
  {
    name: 'GitLab token',
    re: new RegExp(`${START}glpat-[A-Za-z0-9_-]{20,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('glpat-'),
  },
  {
    name: 'Hugging Face token',
    re: new RegExp(`${START}hf_[A-Za-z0-9]{30,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('hf_'),
  },
  {
    name: 'SendGrid key',
    re: new RegExp(`${START}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('SG.'),
  },
  {
    name: 'Google OAuth token',
    re: new RegExp(`${START}ya29\\.[0-9A-Za-z_-]{20,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('ya29.'),
  },
  {
    name: 'DigitalOcean token',
    re: new RegExp(`${START}do[opr]_v1_[a-f0-9]{64}`, 'g'),
    keep: 4,
    may: (x) => x.includes('_v1_'),
  },
  {
    name: 'PyPI token',
    re: new RegExp(`${START}pypi-[A-Za-z0-9_-]{50,}`, 'g'),
    keep: 4,
    may: (x) => x.includes('pypi-'),
  },
  {
    name: 'API token',
    // Tokens known by their prefix: age (`AGE-SECRET-KEY-1`), Groq (`gsk_`), xAI (`xai-`), Shopify
    // (`shpat_` …), GitLab's other tokens (`glrt-` runner, `gldt-` deploy, `glptt-` trigger …), Notion
    // (`ntn_`), Linear (`lin_api_`), Replicate (`r8_`), Docker Hub (`dckr_pat_`), Google OAuth client
    // secrets (`GOCSPX-`), Atlassian (`ATATT3`), Sentry (`sntrys_`, `sntryu_`), HashiCorp Vault
    // (`hvs.`, `hvb.`), Twilio API keys (`SK` and 32 hex digits). Only when what follows the prefix looks
    // generated: a name after it (`hvs.default_token_policy`) is prose.
    re: new RegExp(
      `${START}(?:AGE-SECRET-KEY-1[0-9A-Z]{50,}|gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}|gl(?:rt|dt|ptt|ft|oas)-[A-Za-z0-9_-]{20,}|ntn_[A-Za-z0-9]{40,}|lin_api_[A-Za-z0-9]{32,}|r8_[A-Za-z0-9]{30,}|dckr_pat_[A-Za-z0-9_-]{24,}|GOCSPX-[A-Za-z0-9_-]{24,}|ATATT3[A-Za-z0-9_=-]{100,}|sntry[su]_[A-Za-z0-9+/=_-]{40,}|hv[sb]\\.[A-Za-z0-9_-]{24,}|SK[0-9a-fA-F]{32}(?![0-9a-fA-F]))`,
      'g',
    ),
    keep: 4,
    value: tokenBodyGenerated,
    may: (x) => holds(x, API_TOKEN_PREFIXES),
  },
  {
    name: 'Azure key',
    // A storage account's or Service Bus's key in its connection string: `AccountKey=…;`, `SharedAccessKey=…`.
    re: /(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*([A-Za-z0-9+/]{20,}={0,2})/g,
    keep: 0,
    may: (x) => holds(x, ['AccountKey', 'SharedAccessKey']),
  },
  {
    name: 'basic auth credentials',
    // `Authorization: Basic dXNlcjpwYXNz`: base64 of `user:password`, masked when it decodes to that.
    re: /(?<![A-Za-z0-9])Basic[ \t]+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi,
    keep: 0,
    value: decodesToCredentials,
    may: (x) => /basic/i.test(x),
  },
  {
    name: 'Slack webhook',
    re: /hooks\.slack\.com\/services\/(T[A-Za-z0-9]{6,}\/B[A-Za-z0-9]{6,}\/[A-Za-z0-9]{16,})/g,
    keep: 0,
    may: (x) => x.includes('hooks.slack.com'),
  },
  {
    name: 'Telegram bot token',
    re: /(?<![\w:])\d{8,10}:(AA[A-Za-z0-9_-]{33})(?![\w-])/g,
    keep: 0,
    may: (x) => x.includes(':AA'),
  },
  {
    name: 'bearer token',
    // `Authorization: Bearer …`, `-H "Authorization: Bearer …"`: the token after the scheme.
    // A JSON Web Token after it is named as one (its own rule).
    re: /(?<![A-Za-z0-9])Bearer[ \t]+(?!eyJ)([A-Za-z0-9._~+/-]{16,}=*)/gi,
    keep: 0,
    // A test of the text, not a lower-case copy of it.
    may: (x) => /bearer/i.test(x),
  },
  {
    name: 'password on a command line',
    // `curl -u user:pass`, `--user user:pass`.
    re: /(?<![\w-])(?:-u|--user)[ \t=]+[^\s:'"]{1,64}:([^\s'"]{4,})/g,
    keep: 0,
    // `-u` stands in many words (`follow-up`): only as an option, where the expression takes it (after
    // anything but a letter, a digit, `_` or `-`: a space, a backtick, a parenthesis).
    // A line break after it too: the value may be on the next line (`acrossBreak`).
    may: (x) => /(?<![\w-])(?:-u|--user)[\s=]/.test(x),
    across: (a) => /(?<![\w-])(?:-u|--user)[ \t]*$/.test(a),
  },
  {
    name: 'password on a command line',
    // `--password pass`, `--password=pass`.
    re: /(?<![\w-])--password[ \t=]+([^\s'"-][^\s'"]{3,})/g,
    keep: 0,
    may: (x) => x.includes('--password'),
  },
  {
    name: 'password on a command line',
    // `mysql -ppass`, `mysqldump … -ppass`.
    re: /(?<![\w-])(?:mysql|mariadb|mysqldump)\b[^\n]{0,200}?(?<![\w-])-p([^\s'"]{4,})/g,
    keep: 0,
    may: (x) => holds(x, ['mysql', 'mariadb']),
  },
  {
    name: 'npm token',
    re: new RegExp(`${START}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`, 'g'),
    keep: 4,
    may: (x) => x.includes('npm_'),
  },
  {
    name: 'assigned secret',
    // `password = …`, `DB_PASSWORD=…`, `OPENAI_API_KEY: …`, `aws_secret_access_key = …`, `GITHUB_TOKEN=…`:
    // a key name (up to four `word_` / `word-` parts before the secret word), `=` or `:` (or their full-width
    // forms, `パスワード：` style), a value of 12+, after what YAML may write before a value (`!!str`, `&anchor`,
    // `|`). Bare `token` / `secret` count only as the last part of such a compound name.
    re: new RegExp(
      `${START}(?:(?:[A-Za-z0-9]{1,32}[_-]){0,4}(?:api[_-]?key|secret[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key|password|passwd)|(?:[A-Za-z0-9]{1,32}[_-]){1,4}(?:token|secret))` +
        `(?![A-Za-z0-9])["']?[ \\t]{0,16}[:=：＝][ \\t]{0,16}${YAML_PROPERTIES}["'\`]?(?![<{$])(${VALUE}{12,})`,
      'gi',
    ),
    keep: 0,
    // A table row's `|` stands for `:` (`asShown`).
    may: (x) => holds(x, [':', '=', '|', '：', '＝']) && holdsAnyCase(x, ['key', 'token', 'secret', 'passw']),
    across: (a, b) => holds(b, [':', '=', '：', '＝']) && /key|token|secret|passw/i.test(a),
  },
  {
    name: 'assigned secret',
    // Environment style, `KEY=Qz7#wR4$…`, `STRIPE_KEY=…`, `DB_PASS=…`: an upper-case name ending in a
    // secret word, `=`, a value of 8+ that looks generated (so `SORT_KEY=created_at` is not one).
    re: new RegExp(
      `${START}(?:[A-Z0-9]{1,32}_){0,4}(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|[A-Z0-9]{1,16}(?:PASSWORD|PASSWD|TOKEN|SECRET))(?![A-Za-z0-9])[ \\t]{0,4}=[ \\t]{0,4}["'\`]?(?![<{$])(${VALUE}{8,})`,
      'g',
    ),
    keep: 0,
    value: looksGenerated,
    may: (x) => x.includes('=') && holds(x, ['KEY', 'TOKEN', 'SECRET', 'PASS', 'PWD', 'CREDENTIAL']),
    across: (a, b) => b.includes('=') && /KEY|TOKEN|SECRET|PASS|PWD|CREDENTIAL/.test(a),
  },
  {
    name: 'phone number',
    // International (`+49 30 1234 5678`, `+1 (415) 555-0123`) and North American (`(415) 555-0123`,
    // `415-555-0123`) numbers, 8 to 15 digits; dates (`2026-03-04`), versions and counts have other shapes.
    re: /(?<![\w+./-])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{2,5}){1,4}|\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4})(?![\w/-]|\.\d)/g,
    keep: 0,
    value: (v) => {
      const digits = v.replace(/\D/g, '').length;
      return digits >= 8 && digits <= 15;
    },
    kind: 'personal',
    // Each shape holds `+` and a digit, three digits in parentheses, or 3+3 digits after dots or dashes.
    may: (x) => /\+\d|\(\d{3}\)|\d{3}[.-]\d{3}[.-]\d/.test(x),
  },
  {
    name: 'payment card number',
    // 16 to 19 digits in groups of four (`4111 1111 1111 1111`, `5500-0000-0000-0004`), or 4-6-5 and 4-6-4
    // (`3782 822463 10005`), one separator throughout or none; only with an issuer's prefix and a valid
    // check digit (the Luhn sum), so an id, a count or a timestamp of that many digits is left alone.
    // Group 1 is the number (the value); the others hold its separator.
    re: /(?<![\w.+/-])(\d{4}([ -]?)\d{4}\2\d{4}\2\d{4}(?:\2\d{1,3})?|\d{4}([ -]?)\d{6}\3\d{4,5})(?![\w/-]|[.,]\d)/g,
    keep: 0,
    value: (v) => isCardNumber(v.replace(/\D/g, '')),
    kind: 'personal',
    may: (x) => /\d{4}[ -]?\d{4}/.test(x),
  },
  {
    name: 'social security number',
    // A US social security number as written, `123-45-6789`: never area 000, 666 or 900-999, group 00 or serial 0000.
    re: /(?<![\w.+/-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w/-]|[.,]\d)/g,
    keep: 0,
    kind: 'personal',
    may: (x) => /\d{3}-\d{2}-\d{4}/.test(x),
  },
  {
    name: 'postal address',
    // A house number and a street (`221B Baker Street`, `1600 Amphitheatre Pkwy`), a street and a
    // number (`Hauptstraße 12`, `Rue de Rivoli 4`), a Japanese postal code (`〒100-0001`).
    re: /(?<![\w.-])(?:\d{1,5}[A-Za-z]?,? (?:[A-Z][A-Za-z'-]{1,30} ){1,3}(?:Street|St\.|Avenue|Ave\.?|Road|Rd\.|Boulevard|Blvd\.?|Lane|Ln\.|Drive|Dr\.|Court|Ct\.|Place|Pl\.|Parkway|Pkwy\.?|Terrace|Square|Highway|Hwy\.?)(?![A-Za-z])|[A-ZÄÖÜ][a-zäöüß]{2,30}(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer) \d{1,4}[a-z]?(?![\w.])|(?:Rue|Avenue|Boulevard|Calle|Via|Rua) (?:[A-Za-zÀ-ÿ'-]{1,20} ){0,3}[A-ZÀ-Ý][A-Za-zÀ-ÿ'-]{1,30},? \d{1,4}(?![\w.])|〒 ?\d{3}-\d{4})/g,
    keep: 0,
    kind: 'personal',
    may: (x) => holds(x, STREET_WORDS),
    // A foreign street word that a space ends (`Rue `) ends the line before.
    across: (a) => /(?:Rue|Calle|Via|Rua)[ \t]*$/.test(a),
  },
];

/** Issuers' prefixes: Visa, Mastercard, American Express, Diners Club, Discover, JCB, UnionPay. */
const CARD_ISSUER =
  /^(?:4|5[1-5]|2(?:22[1-9]|2[3-9]|[3-6]|7[01]|720)|3[47]|3(?:0[0-5]|[689])|6(?:011|5|4[4-9]|2)|35(?:2[89]|[3-8]))/;

/**
 * The card numbers payment providers publish for testing (Stripe, Braintree, Adyen, PayPal): a note
 * of which one a test uses is no one's card.
 */
const TEST_CARDS = new Set([
  '4242424242424242',
  '4000056655665556',
  '4111111111111111',
  '4012888888881881',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '5431111111111111',
  '378282246310005',
  '371449635398431',
  '378734493671000',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '38520000023237',
  '30569309025904',
  '3566002020360505',
  '3530111333300000',
  '6200000000000005',
]);

/**
 * A payment card's digits: 14 to 19 of them, an issuer's prefix, not one digit repeated, not a
 * published test number (Stripe's `4000 0000 0000 …` range included), and the Luhn check digit right.
 */
export function isCardNumber(digits: string): boolean {
  if (digits.length < 14 || digits.length > 19 || !CARD_ISSUER.test(digits) || /^(\d)\1*$/.test(digits)) return false;
  if (TEST_CARDS.has(digits) || digits.startsWith('40000000')) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Addresses that name no person: documentation examples, reserved test domains, bots, git remotes, `name@2x.png`. */
const NOT_PERSONAL_MAIL =
  /@(?:[a-z0-9-]+\.)*(?:example\.(?:com|org|net)|[a-z0-9-]+\.(?:invalid|test|example|localhost)|users\.noreply\.github\.com)$|^(?:git|noreply|no-reply|donotreply|do-not-reply)@|\.(?:png|jpe?g|gif|svg|webp|md|ts|js|json|ya?ml)$/i;

/** [A-Za-z0-9_-.+%]: the characters of an address's local part. */
function mailLocal(c: number): boolean {
  return b64url(c) || c === 46 || c === 43 || c === 37;
}

/** `name@domain.tld`: from each `@`, one look back (64 characters at most) and forward (253): linear. */
function mailSpans(line: string): Span[] {
  const out: Span[] = [];
  for (let at = line.indexOf('@'); at !== -1; at = line.indexOf('@', at + 1)) {
    let s = at;
    while (s > 0 && at - s < 64 && mailLocal(line.charCodeAt(s - 1))) s--;
    // `/x@y` is a path or a package, `user:password@host` a URL's credentials (masked as such); `mailto:` an address.
    if (s === at || (s > 0 && mailLocal(line.charCodeAt(s - 1))) || line[s - 1] === '/') continue;
    if (line[s - 1] === ':' && !/mailto:$/i.test(line.slice(Math.max(0, s - 7), s))) continue;
    let e = at + 1;
    while (e < line.length && e - at <= 253 && (b64url(line.charCodeAt(e)) || line.charCodeAt(e) === 46)) e++;
    while (e > at + 1 && line[e - 1] === '.') e--;
    if (!/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/.test(line.slice(at + 1, e))) continue;
    if (NOT_PERSONAL_MAIL.test(line.slice(s, e))) continue;
    out.push({ rule: 'e-mail address', kind: 'personal', from: s, start: s, end: e, keep: 0 });
    at = e - 1;
  }
  return out;
}

/** Placeholders that look like secrets but are not. */
const NOT_SECRET = /(?:x{6,}|\*{4,}|example|placeholder|your[_-]|<[^>]{0,200}>|\$\{|changeme|dummy|redacted|fake)/i;

/** The masked form of a value: `keep` leading characters, an ellipsis and the length. */
export function mask(s: string, keep = 4): string {
  return `${keep > 0 ? s.slice(0, keep) : ''}… (${s.length} chars)`;
}

/** [A-Za-z0-9_-] by char code (a RegExp test per character is slow on long lines). */
function b64url(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/** JSON Web Tokens `eyJ….eyJ….sig` (segments of 10+): one pass over the runs of base64url characters. */
function jwtSpans(line: string): Span[] {
  const out: Span[] = [];
  // Runs of [A-Za-z0-9_-] separated by single dots form a chain; a JWT is three consecutive runs.
  const runs: Array<{ s: number; e: number }> = [];
  let i = 0;
  const n = line.length;
  const flush = () => {
    for (let k = 0; k + 2 < runs.length; k++) {
      const a = runs[k];
      const b = runs[k + 1];
      const c = runs[k + 2];
      if (b.s !== a.e + 1 || c.s !== b.e + 1) continue;
      if (line.startsWith('eyJ', b.s) && b.e - b.s >= 13 && c.e - c.s >= 10) {
        // The header: the first `eyJ` in run a at its start or after a `-`, with 10+ characters after it.
        let h = -1;
        for (let p = line.indexOf('eyJ', a.s); p !== -1 && p < a.e; p = line.indexOf('eyJ', p + 1)) {
          if ((p === a.s || line[p - 1] === '-') && a.e - p >= 13) {
            h = p;
            break;
          }
        }
        if (h >= 0) {
          out.push({ rule: 'JSON Web Token', from: h, start: h, end: c.e, keep: 4 });
          k += 2;
        }
      }
    }
    runs.length = 0;
  };
  while (i < n) {
    if (b64url(line.charCodeAt(i))) {
      const s = i;
      while (i < n && b64url(line.charCodeAt(i))) i++;
      // A run that does not continue a chain (no single dot before it) starts a new one.
      if (runs.length && runs[runs.length - 1].e + 1 !== s) flush();
      runs.push({ s, e: i });
    } else {
      if (!(
        line.charCodeAt(i) === 46 &&
        i + 1 < n &&
        b64url(line.charCodeAt(i + 1)) &&
        runs.length &&
        runs[runs.length - 1].e === i
      ))
        flush();
      i++;
    }
  }
  flush();
  return out;
}

/** White space, `/`, `@`, quotes and angle brackets end a URL's user info. */
function urlStop(c: number): boolean {
  return (
    c <= 32 ||
    c === 47 ||
    c === 64 ||
    c === 39 ||
    c === 34 ||
    c === 60 ||
    c === 62 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** [A-Za-z0-9+.-]: a URL scheme's characters. */
function schemeChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 46 || c === 45;
}

/** `scheme://user:password@host`: the password is masked. Linear: each `://` looks back at most 32 characters and forward to the next stop. */
function urlSpans(line: string): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (;;) {
    const at = line.indexOf('://', from);
    if (at < 0) break;
    from = at + 3;
    // The scheme: a letter, then letters, digits, + . - (at most 32), not glued to a word before it.
    let s = at;
    while (s > 0 && at - s < 32 && schemeChar(line.charCodeAt(s - 1))) s--;
    if (s === at || !/[A-Za-z]/.test(line[s]) || (s > 0 && /[A-Za-z0-9_]/.test(line[s - 1]))) continue;
    // user:password@ — no stop character before the `@`.
    let colon = -1;
    let j = at + 3;
    while (j < line.length && !urlStop(line.charCodeAt(j))) {
      if (colon < 0 && line.charCodeAt(j) === 58) colon = j;
      j++;
    }
    if (line[j] !== '@' || colon <= at + 3 || colon + 1 >= j) continue;
    const host = j + 1;
    if (host >= line.length || urlStop(line.charCodeAt(host))) continue;
    out.push({ rule: 'URL with embedded credentials', from: s, start: colon + 1, end: j, keep: 0 });
    from = j;
  }
  return out;
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,6}PRIVATE KEY(?: BLOCK)?-----/;
const PEM_END = /-----END [A-Z0-9 ]{0,140}-----/;

/** What `lineSpans` gives a line without a secret: most lines (no array made for each). */
const NO_SPANS: readonly Span[] = Object.freeze([]);

/** The spans of one line, in order, without overlaps (the earliest, then the longest, wins). */
function lineSpans(line: string, rules: readonly RegexRule[], asked = false): readonly Span[] {
  let spans: Span[] | undefined;
  for (const r of rules) {
    // The text's gate, asked again of the line (unless `rules` are those it holds for already): a rule that
    // can match somewhere in a file is mostly no match on one line of it, and its expression then runs (and
    // is compiled) for none of them.
    if (!asked && !r.may(line)) continue;
    r.re.lastIndex = 0;
    for (let m = r.re.exec(line); m; m = r.re.exec(line)) {
      // The value is the first group that took part (a rule of several shapes has one per shape), else the match.
      const g = m.findIndex((x, k) => k > 0 && x !== undefined);
      const value = g > 0 ? m[g] : m[0];
      const start = g > 0 ? m.index + m[0].lastIndexOf(value) : m.index;
      if (!r.value || r.value(value))
        (spans ??= []).push({
          rule: r.name,
          from: m.index,
          start,
          end: start + value.length,
          keep: r.keep,
          ...(r.kind ? { kind: r.kind } : {}),
        });
      if (m[0].length === 0) r.re.lastIndex++;
    }
  }
  if (line.includes('eyJ')) (spans ??= []).push(...jwtSpans(line));
  if (line.includes('://')) (spans ??= []).push(...urlSpans(line));
  if (line.includes('@')) (spans ??= []).push(...mailSpans(line));
  if (!spans) return NO_SPANS;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  let end = -1;
  for (const s of spans) {
    if (s.start < end) continue;
    // A placeholder (`sk-example…`, `password = xxxxxxxxxxxx`) is judged on the whole match, key name included.
    if (NOT_SECRET.test(line.slice(s.from, s.end))) continue;
    out.push(s);
    end = s.end;
  }
  return out;
}

/**
 * A secret's name with nothing after its `:` or `=` but an opening quote, a YAML block indicator or
 * the backslash that continues a YAML double-quoted line (`password:` / `  Qz7#wR4$…` on the next
 * line, as a list item or a YAML value wraps; `"api_key=\` / `  Qz7#wR4$…"`): the value is the first
 * word of the next line that is not empty, when it looks generated.
 */
const KEY_ENDS_LINE = new RegExp(
  `${START}(?:(?:[A-Za-z0-9]{1,32}[_-]){0,4}(?:api[_-]?key|secret[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key|password|passwd)|(?:[A-Za-z0-9]{1,32}[_-]){1,4}(?:token|secret))` +
    `(?![A-Za-z0-9])["']?[ \\t]{0,16}[:=][ \\t]{0,16}(?:["'\`]|[>|][+-]?)?\\\\?[ \\t]*$`,
  'i',
);
/** A word every name KEY_ENDS_LINE takes holds (lower case): a line without one is never tried against it. */
const SECRET_WORDS = ['key', 'token', 'secret', 'passw'];

/** The line ends as KEY_ENDS_LINE's lines do (`:`, `=`, a quote, a block indicator or a backslash): the pattern is tried on no other. */
function endsLikeKey(line: string): boolean {
  let e = line.length - 1;
  while (e >= 0 && (line[e] === ' ' || line[e] === '\t')) e--;
  return e >= 0 && ':="\'`|>+-\\'.includes(line[e]);
}

/** The first word of a wrapped value's line: after the indent, a list marker or a quote. */
const WRAPPED_VALUE = new RegExp(`^[ \\t]*(?:[-*+][ \\t]+)?["'\`]?(?![<{$])(${VALUE}{8,})`);

/** The line breaks a text may use: LF, CRLF, and a lone CR (as Markdown reads it). */
function splitLines(text: string): { lines: string[]; breaks: string[] } {
  if (!text.includes('\r')) return { lines: text.split('\n'), breaks: [] };
  const parts = text.split(/(\r\n|\r|\n)/);
  const lines: string[] = [];
  const breaks: string[] = [];
  for (let k = 0; k < parts.length; k += 2) {
    lines.push(parts[k]);
    if (k + 1 < parts.length) breaks.push(parts[k + 1]);
  }
  return { lines, breaks };
}

/** A control character but the line breaks (CR, LF) and tab: a line that holds one is looked at as shown (`asMasked`). */
const CONTROL_IN_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Replace `spans` of `line` by their masked forms, recording a hit for each (a part of a value over a line break: its value's, once). */
function masked(line: string, spans: readonly Span[], n: number, hits: SecretHit[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    const m = mask(line.slice(s.start, s.end), s.keep);
    const hit = s.part ? s.part.hit : m;
    if (hit !== null) hits.push({ rule: s.rule, line: n, masked: hit, ...(s.kind ? { kind: s.kind } : {}) });
    out += line.slice(at, s.start) + m;
    at = s.end;
  }
  return out + line.slice(at);
}

/** A Markdown table row: a `|` first on the line, after the indentation and block quote markers. */
const TABLE_ROW = /^[ \t>]*\|/;
/** An HTML line break (`<br>`, `<br/>`, `<br />`) where a `<` stands, as a table cell breaks its lines. */
const HTML_BREAK = /<br[ \t]{0,8}[/]?>/iy;

/**
 * The line as Markdown shows it where a secret's name and its value may stand apart in it: without its HTML
 * comments (`password: <!-- x -->Qz7#…`), with a space for each HTML line break (`password:<br>Qz7#…`), and a
 * table row's cells as a name and its value (`| password | Qz7#… |` reads as `: password : Qz7#… :`). Null
 * when neither stands in the line. `spans` takes what is found in it back to the line's offsets (a span over
 * a comment takes the comment in). One pass over the line.
 */
function asShown(line: string): { text: string; spans: (found: readonly Span[]) => Span[] } | null {
  const table = TABLE_ROW.test(line);
  let lt = line.indexOf('<');
  if (!table && lt < 0) return null;
  let text = '';
  let from = 0;
  // Where each part of the shown text starts, in it and in the line: [shown, line, shown, line …].
  const parts: number[] = [0, 0];
  const drop = (at: number, to: number, put: string) => {
    text += line.slice(from, at) + put;
    from = to;
    parts.push(text.length, to);
  };
  while (lt >= 0) {
    if (line.startsWith('<!--', lt)) {
      const close = line.indexOf('-->', lt + 4);
      // A comment that does not close on the line hides the rest of it from Markdown, not from the masker.
      if (close < 0) break;
      drop(lt, close + 3, '');
      lt = line.indexOf('<', close + 3);
      continue;
    }
    HTML_BREAK.lastIndex = lt;
    if (HTML_BREAK.test(line)) {
      drop(lt, HTML_BREAK.lastIndex, ' ');
      lt = line.indexOf('<', HTML_BREAK.lastIndex);
      continue;
    }
    lt = line.indexOf('<', lt + 1);
  }
  if (!table && parts.length === 2) return null;
  text += line.slice(from);
  if (table) text = text.replace(/\|/g, ':');
  return {
    text,
    spans: (found) => {
      // Spans are in order: one walk over the parts for all of them.
      let k = 0;
      const at = (x: number, end: boolean): number => {
        while (k + 2 < parts.length && (end ? parts[k + 2] < x : parts[k + 2] <= x)) k += 2;
        return parts[k + 1] + (x - parts[k]);
      };
      return found.map((s) => {
        const start = at(s.start, false);
        const stop = at(s.end, true);
        return { ...s, from: Math.min(start, at(s.from, false)), start, end: stop };
      });
    },
  };
}

/** A table's delimiter row (`| --- | :-: |`): nothing but pipes, colons, dashes, blanks and block quote markers. */
const DELIMITER_ROW = /^[ \t>|:-]+$/;

/** A table header's cell that names a secret (`Password`, `API key`, `DB_PASSWORD`, `Access token`), emphasis and code marks aside. */
const SECRET_HEADER =
  /^(?:(?:[A-Za-z0-9]{1,32}[_ -]){0,4}(?:api[_ -]?key|secret[_ -]?key|access[_ -]?key|access[_ -]?token|auth[_ -]?token|client[_ -]?secret|private[_ -]?key|password|passwd)|(?:[A-Za-z0-9]{1,32}[_ -]){1,4}(?:token|secret))$/i;

/** The cells of a table row: where each one's text starts and ends in the line (split at each `|` no backslash escapes). */
function cellsOf(row: string): Array<[number, number]> {
  let at = /^[ \t>]*/.exec(row)![0].length;
  if (row[at] === '|') at++;
  const cells: Array<[number, number]> = [];
  let from = at;
  for (let k = at; k < row.length; k++)
    if (row[k] === '|' && row[k - 1] !== '\\') {
      cells.push([from, k]);
      from = k + 1;
    }
  if (row.slice(from).trim() !== '') cells.push([from, row.length]);
  return cells;
}

/** The columns of a table (its header `row`) whose header names a secret, by their index; null when none does. */
function secretColumns(row: string): boolean[] | null {
  const columns = cellsOf(row).map(([a, b]) => SECRET_HEADER.test(row.slice(a, b).replace(/[*`]/g, '').trim()));
  return columns.includes(true) ? columns : null;
}

/**
 * The values in the cells of `columns` (a table's columns whose header names a secret): a cell is read as the
 * value of that name, `password: <cell>` (what the assigned-secret rule takes there, a value of 12 or more).
 */
function columnSpans(row: string, columns: readonly boolean[], rules: readonly RegexRule[]): Span[] {
  const out: Span[] = [];
  const NAME = 'password: ';
  cellsOf(row).forEach(([a, b], k) => {
    if (!columns[k]) return;
    for (const s of lineSpans(NAME + row.slice(a, b), rules))
      if (s.rule === 'assigned secret' && s.from < NAME.length && s.start >= NAME.length)
        out.push({
          ...s,
          from: s.start - NAME.length + a,
          start: s.start - NAME.length + a,
          end: s.end - NAME.length + a,
        });
  });
  return out;
}

/** Spans of `more` that overlap none of `spans` added to them (both in order, none overlapping in each): one walk over both. */
function mergedSpans(spans: readonly Span[], more: readonly Span[]): readonly Span[] {
  if (!more.length) return spans;
  const out: Span[] = [];
  let k = 0;
  for (const m of more) {
    while (k < spans.length && spans[k].end <= m.start) out.push(spans[k++]);
    if (k < spans.length && spans[k].start < m.end) continue;
    out.push(m);
  }
  while (k < spans.length) out.push(spans[k++]);
  return out;
}

/** How much of a line's end, and of the next line's start (to the end of a word there), a secret over the break between them is looked for in. */
const ACROSS = 256;

/** What a line's continuation starts with that is no text of it: the indentation and block quote markers. */
const CONTINUATION_LEAD = /^[ \t>]*/;

/**
 * The secrets a line break splits: `prev` and the line after it (`next`) read as one line, as a soft line break
 * reads in Markdown and a plain value folds in YAML (a space between them), or, when `prev` ends with a
 * backslash (a YAML double-quoted line or a shell line continued), with nothing between them. A secret's
 * name at the end of one line and its value on the next (`- password:` / `  hunter2-very-secret`, `? api_key` /
 * `: …`, `Authorization: Bearer` / `…`), a phone number or an address wrapped in a list item, a token continued
 * with a backslash. Only what the break splits is taken (the match starts on `prev` and its value ends on
 * `next`): the parts of the value on each line. Looked for in `prev`'s last ACROSS characters and `next`'s
 * first ACROSS to the end of a word, so each line is read a bounded number of times.
 */
function acrossBreak(
  prev: string,
  next: string,
  rules: readonly RegexRule[],
): { before: Array<[number, number, Span]>; after: Array<[number, number, Span]> } | null {
  const joined = prev.endsWith('\\');
  let from = Math.max(0, prev.length - ACROSS);
  if (from > 0) {
    // From a word's start, so no name is read from its middle.
    const space = prev.slice(from).search(/\s/);
    if (space >= 0) from += space + 1;
  }
  const a = prev.slice(from, joined ? prev.length - 1 : prev.length);
  const lead = CONTINUATION_LEAD.exec(next)![0].length;
  let to = next.length;
  if (to - lead > ACROSS) {
    const space = next.slice(lead + ACROSS).search(/\s/);
    if (space >= 0) to = lead + ACROSS + space;
  }
  const b = next.slice(lead, to);
  if (a.trim() === '' || b.trim() === '') return null;
  const seam = a.length;
  const bAt = seam + (joined ? 0 : 1);
  const both = `${a}${joined ? '' : ' '}${b}`;
  const found = lineSpans(both, rules);
  let out: { before: Array<[number, number, Span]>; after: Array<[number, number, Span]> } | null = null;
  for (const s of found) {
    if (s.from >= seam || s.end <= bAt) continue;
    out ??= { before: [], after: [] };
    const part = { hit: mask(both.slice(s.start, s.end), s.keep) } as { hit: string | null };
    if (s.start < seam) out.before.push([from + s.start, from + seam, { ...s, part }]);
    // What the value's start keeps visible (`ghp_`) is on the line before.
    out.after.push([
      lead + Math.max(0, s.start - bAt),
      lead + s.end - bAt,
      { ...s, keep: s.start < seam ? 0 : s.keep, part },
    ]);
  }
  return out;
}

/**
 * `spans` (a line's, in order, none overlapping) with the parts `[start, end)` of values that run over a line
 * break added where no span of the line covers them yet: what stays of a part is masked as a span of its own,
 * the first that stays of a value recording its hit. A value that a span of the line masks in part has its
 * hit there already (`password: "Qz7#wR4$x\` / `  k9!Lm2pA"`), and records none.
 */
function withParts(spans: readonly Span[], parts: ReadonlyArray<[number, number, Span]>): Span[] {
  if (!parts.length) return spans as Span[];
  const added: Span[] = [];
  for (const [start, end, like] of parts) {
    let at = start;
    for (const s of spans) {
      if (s.end <= at) continue;
      if (s.start >= end) break;
      like.part!.hit = null;
      if (s.start > at) added.push({ ...like, start: at, end: s.start, from: at });
      at = Math.max(at, s.end);
    }
    if (at < end) added.push({ ...like, start: at, end, from: at });
  }
  // A value's hit is recorded once, by its first part that stays.
  for (const s of added) s.part = claim(s.part!);
  return [...spans, ...added].sort((x, y) => x.start - y.start);
}

/** The hit a value's part records: its value's, the first time it is asked for; none after that. */
function claim(part: { hit: string | null }): { hit: string | null } {
  const hit = part.hit;
  part.hit = null;
  return { hit };
}

/**
 * Find every secret in `text` and replace its value by the masked form. Lines keep their number
 * (a private key's body lines are masked one by one, up to its END line; a line break is LF, CRLF or
 * a lone CR). A line with a format character (a zero-width space, a soft hyphen), a control
 * character (`\x01`, DEL) or an escape sequence (`ESC[0m`, `ESC]…BEL`) in it is looked at without
 * them, as the terminal shows it (`asMasked`: the removal `terminalSafe` makes, the variation
 * selectors, joiners and fillers a display may ignore, and combining marks on ASCII characters): when it
 * holds a secret, it is kept without them, so no output (the terminal, the JSON, the hooks) shows the token.
 */
export function maskSecrets(text: string): { text: string; hits: SecretHit[] } {
  const hits: SecretHit[] = [];
  const { lines, breaks } = splitLines(text);
  const hidden = MAY_BE_FORMAT.test(text) || CONTROL_IN_LINE.test(text) || MAY_BE_MARK.test(text);
  // The gates are asked of the text as its lines are looked at: as shown (made once, not once per rule).
  const shown = hidden ? asMasked(text) : text;
  const rules = REGEX_RULES.filter((r) => r.may(shown));
  let changed = false;
  let inKey = 0;
  let wrapped = false;
  // A wrapped value needs a secret's name: the text must hold one (the assigned-secret rule's gate).
  const keyNames = rules.some((r) => r.name === 'assigned secret');
  // The line before, written once the break after it is looked at (a value over it has a part there): null
  // after a blank line and a private key's lines, which no value runs over.
  let held: { i: number; line: string; spans: readonly Span[]; rules: readonly RegexRule[] } | null = null;
  // The columns of the table the lines stand in whose header names a secret.
  let columns: boolean[] | null = null;
  const write = (): void => {
    if (held?.spans.length) {
      lines[held.i] = masked(held.line, held.spans, held.i + 1, hits);
      changed = true;
    }
    held = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = hidden ? asMasked(lines[i]) : lines[i];
    if (inKey > 0 || line.includes('-----BEGIN')) write();
    if (inKey > 0) {
      // The key's body: base64 lines (and PEM header fields) up to the END line; anything else ends it.
      if (PEM_END.test(line) || --inKey === 0) {
        inKey = 0;
        continue;
      }
      if (/^\s*(?:[A-Za-z0-9+/=]{8,}|(?:Proc-Type|DEK-Info|Comment):.{0,400})\s*$/.test(line)) {
        const lead = /^\s*/.exec(line)![0];
        lines[i] = `${lead}${mask(line.trim(), 0)}`;
        changed = true;
        continue;
      }
      if (line.trim() === '') continue;
      inKey = 0;
    }
    const pem = line.includes('-----BEGIN') ? PEM_BEGIN.exec(line) : null;
    if (pem) {
      // The header names the key; the body that follows (on the lines below, or on this line after it, as
      // a JSON string holds it) is the secret, up to its END marker. What stands before and after is looked at.
      hits.push({ rule: 'private key', line: i + 1, masked: mask('PRIVATE KEY block', 0) });
      const bodyAt = pem.index + pem[0].length;
      const end = PEM_END.exec(line.slice(bodyAt));
      const cut = end ? bodyAt + end.index + end[0].length : line.length;
      const body = line.slice(bodyAt, cut);
      const before = line.slice(0, pem.index);
      const rest = line.slice(cut);
      const head = lineSpans(before, rules);
      const tail = rest ? lineSpans(rest, rules) : [];
      lines[i] =
        masked(before, head, i + 1, hits) +
        pem[0] +
        (body.trim() ? mask(body, 0) : body) +
        masked(rest, tail, i + 1, hits);
      changed = true;
      inKey = end ? 0 : 200;
      continue;
    }
    // The rules whose gate the line passes.
    const own = rules.length ? rules.filter((r) => r.may(line)) : rules;
    let spans = lineSpans(line, own, true);
    const shownLine = line.includes('|') || line.includes('<') ? asShown(line) : null;
    if (shownLine) spans = mergedSpans(spans, shownLine.spans(lineSpans(shownLine.text, rules)));
    // A table whose header names a secret (`| user | password |`): the cells under that name are its values.
    if (!line.includes('|')) columns = null;
    else if (DELIMITER_ROW.test(line)) columns = held?.i === i - 1 && keyNames ? secretColumns(held.line) : null;
    else if (columns) spans = mergedSpans(spans, columnSpans(line, columns, rules));
    if (wrapped) {
      // The value of a secret's name that ended the line before.
      const w = WRAPPED_VALUE.exec(line);
      // Only a value that looks generated: a wrapped list item of words is no password.
      if (w && looksGenerated(w[1]) && !NOT_SECRET.test(w[1]) && !spans.some((s) => s.start < w.index + w[0].length)) {
        const start = w.index + w[0].length - w[1].length;
        spans = [{ rule: 'assigned secret', from: start, start, end: start + w[1].length, keep: 0 }, ...spans];
      }
    }
    const blank = line.trim() === '';
    if (!blank) wrapped = keyNames && endsLikeKey(line) && holdsAnyCase(line, SECRET_WORDS) && KEY_ENDS_LINE.test(line);
    // A secret the break before this line splits: a rule whose gate one of the two lines passes (or both
    // together, `across`), or any when a backslash joins them.
    const prev = held as { line: string; spans: readonly Span[]; rules: readonly RegexRule[] } | null;
    let parts = null;
    if (prev && !blank) {
      const joined = prev.line.endsWith('\\');
      const both = joined
        ? rules
        : rules.filter((r) => prev.rules.includes(r) || own.includes(r) || r.across?.(prev.line, line));
      if (both.length || joined) parts = acrossBreak(prev.line, line, both);
    }
    if (prev && parts) {
      prev.spans = withParts(prev.spans, parts.before);
      spans = withParts(spans, parts.after);
    }
    write();
    held = blank ? null : { i, line, spans, rules: own };
  }
  write();
  if (!changed) return { text, hits };
  if (!breaks.length) return { text: lines.join('\n'), hits };
  return { text: lines.map((l, k) => l + (breaks[k] ?? '')).join(''), hits };
}

/** The secrets in `text` (masked samples, one per value). */
export function findSecrets(text: string): SecretHit[] {
  return maskSecrets(text).hits;
}
