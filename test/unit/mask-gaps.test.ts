/**
 * Secrets an attack round (review 55) found shown raw, each case from its input, on the surfaces the
 * review showed it on: a control character or an escape sequence inside a token (F1), a token in a
 * value git gives (F8), a secret whose value YAML takes from the line below its key (F9).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { maskSecrets } from '../../src/core/secrets/secrets';
import { terminalSafe } from '../../src/core/markdown/format-chars';
import { assertLinear, cli, fixtureCopy, git, gitInit, HOOK_SCRIPT } from './helpers';

const A18 = 'A'.repeat(18);
const B18 = 'B'.repeat(18);

/** What each surface prints: status, check (text and --json), and the SessionStart hook after a compaction. */
function surfaces(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
    const r = cli([...args, '--root', dir]);
    out.push([args.join(' '), r.stdout + r.stderr]);
  }
  const hook = spawnSync(process.execPath, [HOOK_SCRIPT, 'hook', 'session-start'], {
    input: JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'compact', cwd: dir }),
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
    encoding: 'utf8',
  });
  out.push(['hook session-start', hook.stdout + hook.stderr]);
  return out;
}

/** JSON output decoded (`\u0001` is the character again), then with its control characters taken out, as a reader joins it. */
function joined(out: string): string {
  const decoded = out.replace(/\\u00([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return decoded.replace(/\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

test('F1: a control character, an escape sequence or a character a display ignores inside a token does not hide it from the masker', () => {
  const cases: Array<[string, string, string]> = [
    [`deploy with ghp_${A18}\u0001${B18} now`, `ghp_${A18}`, `ghp_… (40 chars)`],
    [`key AKIAABCDEFGH\u001b[0mIJKLMNOP end`, 'AKIAABCDEFGH', 'AKIA… (20 chars)'],
    [`osc ghp_${A18}\u001b]8;;\u0007${B18} x`, `ghp_${A18}`, `ghp_… (40 chars)`],
    [`del ghp_${A18}\u007f${B18}`, `ghp_${A18}`, `ghp_… (40 chars)`],
    [`c1 ghp_${A18}\u009b${B18}`, `ghp_${A18}`, `ghp_… (40 chars)`],
    // Characters a display ignores that are no format character (variation selectors, the combining
    // grapheme joiner, a Mongolian variation selector, a Hangul filler).
    // Combining marks on a token's letter (an acute, a combining ring, kana's voicing mark).
    ...[
      '\ufe0f',
      '\ufe00',
      '\u034f',
      '\u180b',
      '\u3164',
      '\u{e0100}',
      '\u0301',
      '\u030a\u0301',
      '\u20d7',
      '\u3099',
      // Marks of other blocks draw on a Latin letter too: a Cyrillic titlo, an enclosing circle, a
      // Devanagari stress sign and spacing mark, a Thai vowel sign, a musical stem (astral).
      '\u0483',
      '\u0488',
      '\u0951',
      '\u0903',
      '\u0e31',
      '\u{1d165}',
    ].map((c): [string, string, string] => [`ignorable ghp_${A18}${c}${B18} x`, `ghp_${A18}`, `ghp_… (40 chars)`]),
  ];
  for (const [text, raw, masked] of cases) {
    const r = maskSecrets(text);
    assert.ok(!r.text.includes(raw), `${JSON.stringify(text)} -> ${JSON.stringify(r.text)}`);
    assert.ok(r.text.includes(masked), JSON.stringify(r.text));
    assert.equal(r.hits.length, 1, JSON.stringify(text));
  }
  // Text without a secret keeps the characters a display may ignore: an emoji's presentation, a keycap,
  // a Japanese variant glyph (U+E0100) are what the user wrote, in the masker's output and on the terminal.
  const emoji = '\u26a0\ufe0f Step 1\ufe0f\u20e3 \u845b\u{e0100}\u98fe \u2764\ufe0f\u200d\ud83d\udd25';
  assert.equal(maskSecrets(emoji).text, emoji);
  // So do decomposed accents and voiced kana (NFD text): the marks are the user's words.
  const nfd = 'Cafe\u0301 re\u0301sume\u0301 \u304b\u3099\u304d \u0928\u092e\u0938\u094d\u0924\u0947 A\u20dd';
  assert.equal(maskSecrets(nfd).text, nfd);
  assert.equal(terminalSafe(emoji), emoji.replace('\u200d', ''));
  // A line without a secret keeps its characters (the terminal removes them when it prints).
  assert.equal(maskSecrets('plain \u001b[31mred\u001b[0m text').text, 'plain \u001b[31mred\u001b[0m text');
  // An escape sequence never takes in white space: the two halves of a list item's wrapped lines stay apart.
  const wrapped = `- deploy ghp_${A18}\u001b]\n  \u0007${B18}`;
  assert.equal(maskSecrets(wrapped).text, wrapped);
  // Linear in the input, escape sequences and control characters everywhere.
  const unit = `ghp_${A18}\u001b]0;t\u0007\u0001\u001b[1m${B18} `;
  assertLinear('maskSecrets, control characters', (s) => maskSecrets(s), unit.repeat(2000), unit.repeat(8000));
  const open = `x\u001b]${'y'.repeat(50)}`;
  assertLinear('maskSecrets, open OSC sequences', (s) => maskSecrets(s), open.repeat(2000), open.repeat(8000));
});

test('maskSecrets reads a text with combining marks (NFD accents) or zero-width spaces as shown once, not once per secret rule: it costs a few times the same text precomposed, not tens of times', () => {
  const cpu = (f: () => unknown): number => {
    const t0 = process.cpuUsage();
    f();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1e3;
  };
  const nfc = 'Le caf\u00e9 de la gare est tr\u00e8s anim\u00e9 \u00e0 l\u2019heure du d\u00e9jeuner.\n'.repeat(12_000);
  for (const [name, slow] of [
    ['NFD accents', nfc.normalize('NFD')],
    ['zero-width spaces', nfc.replace(/ /g, ' \u200b')],
  ]) {
    maskSecrets(nfc);
    maskSecrets(slow);
    let seen = '';
    let ok = false;
    for (let attempt = 0; attempt < 3 && !ok; attempt++) {
      const a = Math.max(
        5,
        Math.min(
          cpu(() => maskSecrets(nfc)),
          cpu(() => maskSecrets(nfc)),
        ),
      );
      const b = cpu(() => maskSecrets(slow));
      seen += ` ${a.toFixed(1)}/${b.toFixed(1)} ms`;
      ok = b / a < 8;
    }
    assert.ok(ok, `${name}: precomposed/${name} took${seen} (over 8 times on every attempt)`);
  }
});

test('F1: status, check (text and --json) and the SessionStart hook show no token with a control character inside', () => {
  const dir = fixtureCopy('s0/good');
  const ledger = path.join(dir, '.agents/session_ledger.md');
  writeFileSync(
    ledger,
    readFileSync(ledger, 'utf8').replace(
      '### Now\n',
      `### Now\n- deploy with ghp_${A18}\u0001${B18} then AKIAABCDEFGH\u001b[0mIJKLMNOP and DB_PASSWORD=Qz7#wR4\u007f$xk9!Lm\n` +
        `- wrapped ghp_${A18}\u001b]\n  \u0007${B18} end\n`,
    ),
  );
  gitInit(dir);
  for (const [what, out] of surfaces(dir)) {
    const shown = joined(out);
    for (const raw of [`ghp_${A18}${B18}`, 'AKIAABCDEFGHIJKLMNOP', 'Qz7#wR4$xk9!Lm'])
      assert.ok(!shown.includes(raw), `${what} shows ${raw}: ${out}`);
    assert.ok(!out.includes(`ghp_${A18}\\u0001`) && !out.includes(`ghp_${A18}\u0001`), `${what}: ${out}`);
    assert.match(out, /ghp_… \(40 chars\)/, `${what} shows the masked form`);
  }
});

test("F8: a token in what git gives (the branch name, a changed file's name) is masked where a check shows it", () => {
  const K36 = 'K'.repeat(36);
  const dir = fixtureCopy('s3/good');
  gitInit(dir);
  git(dir, 'checkout', '-qb', `deploy-ghp_${K36}`);
  // An uncommitted file named with a token, with a `defer:` marker: work-explained and debt name it.
  writeFileSync(path.join(dir, `ghp_${K36}.js`), 'x\n// defer: later\n');
  const outs: Array<[string, string]> = [];
  for (const args of [['check'], ['check', '--json'], ['status'], ['status', '--json'], ['checkpoint']]) {
    const r = cli([...args, '--root', dir]);
    outs.push([args.join(' '), r.stdout + r.stderr]);
  }
  for (const [what, out] of outs) assert.ok(!out.includes(K36), `${what} shows the token: ${out}`);
  const check = outs[0][1];
  assert.match(check, /the branch is deploy-ghp_… \(40 chars\), the handoff says main/);
  assert.match(check, /work-explained +1 uncommitted change \(ghp_… \(40 chars\)\.js\)/);
  assert.match(check, /debt .*ghp_… \(40 chars\)\.js:2 "later"/);
  // The handoff naming that very branch (masked in its text too) matches git: no mismatch for good.
  const state = path.join(dir, 'docs/state/STATE.md');
  const head = git(dir, 'rev-parse', '--short', 'HEAD').trim();
  writeFileSync(
    state,
    readFileSync(state, 'utf8').replace(
      /^- \*\*Branch \/ HEAD:\*\*.*$/m,
      `- **Branch / HEAD:** deploy-ghp_${K36} @ ${head}`,
    ),
  );
  const after = cli(['check', '--root', dir]).stdout;
  assert.match(after, /ok {3}branch-head {8}Branch deploy-ghp_… and HEAD [0-9a-f]{7} match git/);
  assert.ok(!after.includes(K36), after);
  // Another branch that holds a token too (more after it, or another token) is no match.
  for (const other of [`deploy-ghp_${K36}-other`, `deploy-ghp_${'Z'.repeat(36)}x`]) {
    writeFileSync(
      state,
      readFileSync(state, 'utf8').replace(/^- \*\*Branch \/ HEAD:\*\*.*$/m, `- **Branch / HEAD:** ${other} @ ${head}`),
    );
    assert.match(cli(['check', '--root', dir]).stdout, /warn branch-head {8}Branch out of date: the branch is/, other);
  }
});

test('F9: a secret whose value YAML takes from the next line (a tag, an anchor, a comment, an explicit key) is masked and found', () => {
  const dir = fixtureCopy('s0/good');
  const yml = path.join(dir, '.agents.yml');
  const values = ['Qz7#wR4$xk9!Lm2pA', 'Rb8#vT5$yj0!Np3qB', 'Sc9#uU6$zi1!Oq4rC', 'Td0#tV7$ah2!Pr5sD'];
  writeFileSync(
    yml,
    readFileSync(yml, 'utf8') +
      `  password: !!str\n    ${values[0]}\n  api_key: &k\n    ${values[1]}\n` +
      `  db_password:   # the prod one\n    ${values[2]}\n  ? secret_key\n  : ${values[3]}\n`,
  );
  gitInit(dir);
  for (const args of [['status'], ['status', '--json'], ['check'], ['check', '--json']]) {
    const out = cli([...args, '--root', dir]);
    for (const v of values) assert.ok(!(out.stdout + out.stderr).includes(v), `${args.join(' ')} shows ${v}`);
  }
  const check = cli(['check', '--root', dir]).stdout;
  assert.doesNotMatch(check, /No secrets found/);
  const lines = readFileSync(yml, 'utf8').split('\n');
  for (const v of values) {
    const line = lines.findIndex((l) => l.includes(v)) + 1;
    assert.match(
      check,
      new RegExp(`no-secrets .*\\.agents\\.yml:${line} \\(… \\(17 chars\\)\\)`),
      `${v} at line ${line}`,
    );
  }
});
