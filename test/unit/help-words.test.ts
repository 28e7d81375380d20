/**
 * The manuals in the user's language: `--help`, `<command> --help`, `help <command>` and the overview a
 * usage error prints say their prose (summaries, about texts, option and exit-code texts, headings) in
 * Japanese or Korean when the locale names one, with the extension's own bundles, as `check` does; command
 * names, option names, paths and the example stay as they are. English is the default, and the hook
 * script in a repository, which has no bundle beside it, prints its manuals in English whatever the locale.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { manualIn, MANUALS, type Manual } from '../../src/cli/help';
import { cli, cliProcess, escapeRegExp, HOOK_SCRIPT, locale, LOCALE_LANGS, REPO, workspace } from './helpers';

/** Every command and subcommand as typed, with its manual: ['check'], ['hooks', 'install'], … */
const ALL: Array<[string[], Manual]> = Object.entries(MANUALS).flatMap(([name, m]) => [
  [[name], m] as [string[], Manual],
  ...Object.entries(m.sub ?? {}).map(([s, sub]) => [[name, s], sub] as [string[], Manual]),
]);

/** The strings of a manual a language says in its own words (its subcommands' too). */
function proseOf(m: Manual): string[] {
  const all: string[] = [];
  manualIn(m, (s) => (all.push(s), s));
  return all;
}

/** The strings of a manual its --help prints: its own, and each subcommand's summary. */
function printedProse(m: Manual): string[] {
  return [...proseOf({ ...m, sub: undefined }), ...Object.values(m.sub ?? {}).map((s) => s.summary)];
}

/** Each line of a manual in `script`, but the example's command line (and blank lines), which stays as in English. */
function everyLineIn(text: string, example: string, script: RegExp, what: string): void {
  for (const line of text.split('\n'))
    if (line.trim() !== '' && line !== `  ${example}`) assert.match(line, script, `${what}: "${line}" is English`);
}

test('every string of every manual, and the help options, has a Japanese and a Korean entry in the extension bundles', () => {
  const strings = [...new Set(Object.values(MANUALS).flatMap(proseOf))];
  assert.ok(strings.length > 90, `${strings.length} strings`);
  for (const lang of ['ja', 'ko']) {
    const bundle = JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.deepEqual(
      strings.filter((s) => typeof bundle[s] !== 'string' || bundle[s] === s),
      [],
      `l10n/bundle.l10n.${lang}.json lacks manual strings`,
    );
  }
});

test('<command> --help in ja and ko: every line of every manual in the language but the example; command and option names, paths and the example as in English', () => {
  for (const [words, m] of ALL) {
    const en = cli([...words, '--help'], { env: locale('C') });
    assert.equal(en.code, 0, en.stderr);
    for (const [lang, tr, script] of LOCALE_LANGS) {
      const what = `${lang} ${words.join(' ')} --help`;
      const r = cli([...words, '--help'], { env: locale(lang) });
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
      assert.equal(r.stderr, '', what);
      everyLineIn(r.stdout, m.example, script, what);
      // As in English: each flag and exit code opens its row, the example and the usage's command line as they are.
      for (const [flag] of [...m.options, ['-h, --help']])
        assert.match(r.stdout, new RegExp(`^  ${escapeRegExp(flag)}  `, 'm'), what);
      for (const [code] of m.exit) assert.match(r.stdout, new RegExp(`^  ${code < 0 ? '\\*' : code}  `, 'm'), what);
      assert.ok(r.stdout.includes(`\n  ${m.example}\n`), what);
      assert.ok(r.stdout.startsWith(`session-ledger ${words.join(' ')}: ${tr(m.summary)}\n`), `${what}:\n${r.stdout}`);
      assert.ok(r.stdout.includes(tr('Usage: {0}', m.usage.split('   ')[0])), what);
      for (const s of printedProse(m)) {
        assert.ok(r.stdout.includes(tr(s)), `${what}: ${tr(s)}`);
        assert.ok(!r.stdout.includes(s), `${what} still says "${s}"`);
      }
    }
  }
});

test('check --help, hooks install --help and help checkpoint in ja and ko: the headings and the words the extension says for the same things', () => {
  const check = {
    ja: ['オプション:', '終了コード:', '例:', '状態ファイル', '手動項目', 'ガードフック'],
    ko: ['옵션:', '종료 코드:', '예:', '상태 파일', '수동 항목', '가드 훅'],
  };
  const install = {
    ja: ['.claude/settings.json にガードフックを追加し、.claude/hooks/session-ledger.cjs を書き込む', 'リマインダー'],
    ko: ['.claude/settings.json에 가드 훅을 추가하고 .claude/hooks/session-ledger.cjs를 씀', '리마인더'],
  };
  const checkpoint = {
    ja: ['マーカー', '共有マーカー', '締めくくりの手順', '再開プロンプト', 'PreCompact ガード'],
    ko: ['마커', '공유 마커', '마무리 단계', '재개 프롬프트', 'PreCompact 가드'],
  };
  for (const [lang, key] of [
    ['ja_JP.UTF-8', 'ja'],
    ['ko_KR.UTF-8', 'ko'],
  ] as const) {
    const c = cli(['check', '--help'], { env: locale(lang) }).stdout;
    for (const w of check[key]) assert.ok(c.includes(w), `${lang} check --help: ${w}\n${c}`);
    const i = cli(['hooks', 'install', '--help'], { env: locale(lang) }).stdout;
    for (const w of install[key]) assert.ok(i.includes(w), `${lang} hooks install --help: ${w}\n${i}`);
    const p = cli(['help', 'checkpoint'], { env: locale(lang) });
    assert.equal(p.code, 0);
    assert.deepEqual(p, cli(['checkpoint', '--help'], { env: locale(lang) }));
    for (const w of checkpoint[key]) assert.ok(p.stdout.includes(w), `${lang} help checkpoint: ${w}\n${p.stdout}`);
  }
});

test('--help, help and the overview of a usage error in ja and ko: every line in the language; each command listed by its name', () => {
  for (const [lang, tr, script] of LOCALE_LANGS) {
    const r = cli(['--help'], { env: locale(lang) });
    assert.equal(r.code, 0, r.stderr);
    everyLineIn(r.stdout, '', script, `${lang} --help`);
    for (const [name, m] of Object.entries(MANUALS))
      assert.match(r.stdout, new RegExp(`^  ${name} +${escapeRegExp(tr(m.summary))}$`, 'm'), `${lang} --help: ${name}`);
    assert.ok(
      r.stdout.includes(tr('Run `{0} --help` for its options, exit codes and an example.', 'session-ledger <command>')),
    );
    assert.deepEqual(cli(['help'], { env: locale(lang) }), r);
    assert.deepEqual(cli(['-h'], { env: locale(lang) }), r);
    // A usage error: no command. The overview on stderr, then what is wrong, exit 2 (a real process: it reads its environment).
    const none = cliProcess([], { env: locale(lang) });
    assert.equal(none.code, 2);
    assert.equal(none.stderr, `${r.stdout.replace(/\n$/, '')}\n\n${tr('session-ledger: no command given.')}\n`);
    // And an option it does not know: the reason, the usage and the help command.
    const bad = cli(['check', '--frob'], { env: locale(lang) });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      `${tr(
        'session-ledger {0}: {1} (usage: {2}; more: {3})',
        'check',
        tr("unknown option '{0}'", '--frob'),
        MANUALS.check.usage,
        'session-ledger check --help',
      )}\n`,
    );
  }
});

test('in C, en_US and a Japanese locale in another codeset, the manuals are English: every string as the manual writes it', () => {
  for (const [words, m] of ALL) {
    const en = cli([...words, '--help'], { env: locale('C') });
    for (const s of printedProse(m)) assert.ok(en.stdout.includes(s), `${words.join(' ')} --help: "${s}"`);
    assert.match(en.stdout, /\nOptions:\n[\s\S]*\nExit codes:\n[\s\S]*\nExample:\n/);
    for (const l of ['en_US.UTF-8', 'ja_JP.eucJP', 'POSIX'])
      assert.deepEqual(cli([...words, '--help'], { env: locale(l) }), en, `${l} ${words.join(' ')}`);
  }
  const overview = cli(['--help'], { env: locale('C') }).stdout;
  assert.ok(overview.startsWith('session-ledger '));
  assert.ok(
    overview.endsWith(
      '\nExit codes: 0 ok, 1 a check blocks, 2 bad usage, 3 no agent session or no figure found (context).\n',
    ),
  );
  assert.doesNotMatch(overview, /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/);
  assert.deepEqual(cli(['--help'], { env: locale('en_US.UTF-8') }).stdout, overview);
});

test('the hook script in a repository prints its manuals in English whatever the locale: it has no bundle beside it', () => {
  const dir = workspace();
  const script = path.join(dir, '.claude', 'hooks', 'session-ledger.cjs');
  mkdirSync(path.dirname(script), { recursive: true });
  copyFileSync(HOOK_SCRIPT, script);
  for (const args of [['--help'], ['check', '--help'], ['hooks', 'install', '--help'], ['help', 'checkpoint']]) {
    const en = cli(args, { env: locale('C') });
    for (const lang of ['C', 'ja_JP.UTF-8', 'ko_KR.UTF-8']) {
      const r = spawnSync(process.execPath, [script, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, ...locale(lang) },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, en.stdout, `${lang} ${args.join(' ')}`);
    }
  }
});
