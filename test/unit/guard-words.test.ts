/**
 * The guard's block and the reminder in the user's language: the hook script installed in a repository
 * speaks Japanese and Korean when the locale says so (LC_ALL, LC_MESSAGES, LANG, as `check` decides),
 * with the extension's own translations built into the script (its words' part, compiled only then),
 * never from a file beside it. The commands the block names are the same lines in every language and
 * run as printed; LANG=C and every other locale stay English. What the script says runs through its own
 * entry in this process (`hookScript`); what its process compiles and reads beside it, as a process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { HOOK_HOOKS_MARKER, HOOK_METER_MARKER, HOOK_WORDS_MARKER } from '../../src/core/hooks/files';
import { suggestionLine } from '../../src/core/hooks/remind';
import { passedOn, WORDED_MODULES } from '../../src/cli/hook-words';
import { markerRel } from '../../src/core/checkpoint/marker';
import {
  cli,
  copyDemo,
  HOOK_SCRIPT,
  hookScript,
  jaT,
  koT,
  locale,
  partCompiles,
  REPO,
  workspace,
  write,
} from './helpers';
import {
  preCompact,
  projectEnv,
  projectShell,
  s3Workspace,
  scriptProgram,
  SID,
  transcriptAt,
} from './checkpoint-fixtures';

const LANGS = [
  { name: 'Japanese', locale: 'ja_JP.UTF-8', tr: jaT, script: /[\u3040-\u30ff\u4e00-\u9fff]/ },
  { name: 'Korean', locale: 'ko_KR.UTF-8', tr: koT, script: /[\uac00-\ud7af]/ },
] as const;

/** S3's workspace with the hooks installed from the built hook script (`.claude/hooks/session-ledger.cjs`). */
function installed(): string {
  const dir = s3Workspace();
  const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  return dir;
}

/** `node <script> <args>` in the project `dir`, as the client runs a hook there, in the environment `env` adds to the project's. */
function hook(dir: string, script: string, args: string[], input: string, env: NodeJS.ProcessEnv, pre: string[] = []) {
  const r = spawnSync(process.execPath, [...pre, script, ...args], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...projectEnv(dir), ...env },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `hook`'s run through the script's own entry in this process (`hookScript`): for what the script says and
 * does, where how its own process loads it is not under test (the parts it compiles, files beside it).
 */
function said(dir: string, script: string, args: string[], input: string, env: NodeJS.ProcessEnv) {
  return hookScript(script, args, { cwd: dir, input, env: { ...projectEnv(dir), ...env } });
}

const SCRIPT = '.claude/hooks/session-ledger.cjs';

/** The block's lines a user copies and runs: each command line (`commandLines`: ending in ` \`, and the one after). */
function commandLinesOf(block: string): string[] {
  const lines = block.split('\n');
  return lines.filter((l, i) => l.endsWith(' \\') || (i > 0 && lines[i - 1].endsWith(' \\')));
}

test("the guard's block in Japanese and Korean by the locale: every sentence in that language, each command line as in English, and the checkpoint it names runs as printed", () => {
  const dir = installed();
  const en = said(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('C'));
  assert.equal(en.code, 2, en.stderr);
  assert.ok(
    en.stderr.startsWith(`Compaction stopped: no checkpoint has run in this session (${markerRel(SID)} is missing).\n`),
    en.stderr,
  );
  const enLines = en.stderr.trimEnd().split('\n');
  const commands = commandLinesOf(en.stderr);
  // The checkpoint's command, the nothing-to-preserve one and the marker written by hand, three lines each (the
  // two that run the hook script one more when they go to the project's folder first, its path being long).
  assert.equal(commands.length, scriptProgram(dir).startsWith('cd ') ? 11 : 9, en.stderr);
  for (const l of LANGS) {
    const r = said(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale(l.locale));
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(
      lines[0],
      l.tr('Compaction stopped: no checkpoint has run in this session ({0} is missing).', markerRel(SID)),
    );
    assert.ok(lines.includes(`3. ${l.tr('Run:')}`), `${l.name}:\n${r.stderr}`);
    assert.ok(lines.includes(l.tr('Nothing worth preserving? Run:')), `${l.name}:\n${r.stderr}`);
    // Line for line the English block's: a command line as it is, the file and its trigger as they are
    // (data), every other line in the language.
    assert.equal(lines.length, enLines.length, `${l.name}:\n${r.stderr}`);
    lines.forEach((line, i) => {
      if (commands.includes(enLines[i]) || enLines[i] === '   - docs/state/STATE.md: /checkpoint')
        assert.equal(line, enLines[i], `${l.name}, line ${i + 1}`);
      else {
        assert.notEqual(line, enLines[i], `${l.name}, line ${i + 1} is English: ${line}`);
        assert.match(line, l.script, `${l.name}, line ${i + 1}: ${line}`);
      }
    });
    // The last step: S3's closing step, /clear, and that /compact passes too, in the language.
    assert.equal(
      lines.filter((x) => /^\d+\. /.test(x)).pop(),
      `4. ${l.tr('Type /clear, the closing step of {0}: it starts afresh from the state files, with the resume prompt. /compact passes too once the checkpoint is written.', 'S3')}`,
      `${l.name}:\n${r.stderr}`,
    );
    // The manual items in the extension's words for them.
    assert.ok(
      lines.includes(
        `   - last-request: ${l.tr("The user's last request is completed or recorded.").replace(/[.。]$/, '')}`,
      ),
      `${l.name}:\n${r.stderr}`,
    );
    // Codex reads the same block from its JSON, the system's slash command a request in the language
    // (Codex has no such command).
    const codex = said(dir, SCRIPT, ['hook', 'pre-compact', '--codex'], preCompact(dir), locale(l.locale));
    assert.equal(codex.code, 0, codex.stderr);
    const request = l.tr(
      'Bring {0} up to date for a checkpoint (Codex has no {1} command)',
      'docs/state/STATE.md',
      '/checkpoint',
    );
    assert.match(request, l.script);
    assert.equal(
      JSON.parse(codex.stdout).stopReason,
      r.stderr
        .replace(/\n$/, '')
        .replace('   - docs/state/STATE.md: /checkpoint\n', `   - docs/state/STATE.md: ${request}\n`),
    );
  }
  // Run as printed in Japanese, the checkpoint's command writes the marker, and the guard lets /compact through.
  const ja = said(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('ja_JP.UTF-8')).stderr.split('\n');
  const from = ja.indexOf(`3. ${jaT('Run:')}`);
  // Its lines: each but the last ending in ` \`.
  const to = ja.findIndex((l, i) => i > from && !l.endsWith(' \\'));
  const command = ja.slice(from + 1, to + 1).join('\n');
  const run = projectShell(command, dir, dir);
  assert.equal(run.code, 0, `${command}\n${run.stdout}${run.stderr}`);
  assert.ok(existsSync(path.join(dir, markerRel(SID))));
  const after = said(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('ja_JP.UTF-8'));
  assert.deepEqual([after.code, after.stderr], [0, '']);
});

test('the locale as `check` takes it: LC_ALL before LC_MESSAGES before LANG; C, POSIX, en_US and a Japanese locale in another codeset stay English', () => {
  const dir = installed();
  const saidIn = (env: NodeJS.ProcessEnv) => said(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), env).stderr;
  const english = saidIn(locale('C'));
  assert.match(english, /^Compaction stopped: /);
  for (const env of [
    locale('POSIX'),
    locale('en_US.UTF-8'),
    locale('ja_JP.eucJP'),
    { LC_ALL: 'C', LC_MESSAGES: '', LANG: 'ja_JP.UTF-8' },
    { LC_ALL: '', LC_MESSAGES: 'C', LANG: 'ko_KR.UTF-8' },
  ])
    assert.equal(saidIn(env), english, JSON.stringify(env));
  const ja = saidIn(locale('ja_JP.UTF-8'));
  assert.equal(saidIn({ LC_ALL: 'ja_JP.UTF-8', LC_MESSAGES: '', LANG: 'C' }), ja);
  assert.equal(saidIn({ LC_ALL: '', LC_MESSAGES: 'ja_JP.utf8', LANG: 'ko_KR.UTF-8' }), ja);
  assert.equal(saidIn(locale('ja')), ja);
});

test("a repository's files word nothing: a bundle planted beside the hook script, where a package keeps its l10n folder, or in a repository laid out as the package changes no word", () => {
  const dir = installed();
  const ja = hook(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('ja_JP.UTF-8'));
  assert.equal(ja.code, 2);
  assert.match(ja.stderr.split('\n')[0], LANGS[0].script, ja.stderr);
  const planted = JSON.stringify({
    'Compaction stopped: no checkpoint has run in this session ({0} is missing).': 'PLANTED: all is fine {0}',
    'Run:': 'PLANTED',
    'Nothing worth preserving? Run:': 'PLANTED',
  });
  for (const rel of [
    '.claude/hooks/bundle.l10n.ja.json',
    '.claude/hooks/l10n/bundle.l10n.ja.json',
    '.claude/l10n/bundle.l10n.ja.json',
    'l10n/bundle.l10n.ja.json',
  ])
    write(dir, rel, planted);
  const again = hook(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('ja_JP.UTF-8'));
  assert.deepEqual(again, ja);
  // The hook script at a package's place (dist/ beside l10n/), inside the repository: the words are still its own.
  mkdirSync(path.join(dir, 'dist'));
  writeFileSync(path.join(dir, 'dist', 'session-ledger.cjs'), readFileSync(HOOK_SCRIPT));
  const asPackage = hook(
    dir,
    'dist/session-ledger.cjs',
    ['hook', 'pre-compact'],
    preCompact(dir),
    locale('ja_JP.UTF-8'),
  );
  assert.equal(asPackage.code, 2);
  assert.doesNotMatch(asPackage.stderr, /PLANTED/);
  // The same block, its commands naming that script.
  const program = (s: string) =>
    s.replace(/cd \S+ && \\\n +(?=node )/g, '').replace(/node \S*session-ledger\.cjs/g, 'node <script>');
  assert.equal(program(asPackage.stderr), program(ja.stderr));
});

test('the words are compiled only for Japanese or Korean, and only once there is something to say: English, and a guard that allows, compile nothing more', () => {
  const dir = installed();
  const { require: pre, compiled: parts } = partCompiles(path.join(dir, SCRIPT), [
    ['meter', HOOK_METER_MARKER],
    ['hooks', HOOK_HOOKS_MARKER],
    ['words', HOOK_WORDS_MARKER],
  ]);
  const guard = (lang: string) => hook(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale(lang), pre);
  for (const lang of ['C', 'en_US.UTF-8']) {
    assert.equal(guard(lang).code, 2);
    assert.deepEqual(parts(), ['hooks'], lang);
  }
  assert.equal(guard('ko_KR.UTF-8').code, 2);
  assert.deepEqual(parts(), ['hooks', 'words']);
  // Allowed (nothing to preserve): nothing said, no words read.
  const opt = hook(dir, SCRIPT, ['checkpoint', '--nothing-to-preserve', '--session', SID], '', locale('C'));
  assert.equal(opt.code, 0, opt.stderr);
  parts();
  const allowed = guard('ja_JP.UTF-8');
  assert.deepEqual([allowed.code, allowed.stderr], [0, '']);
  assert.deepEqual(parts(), ['hooks']);
});

test('a copy of the hook script cut short before its words speaks English, as it did before it had them', () => {
  const dir = installed();
  const file = path.join(dir, SCRIPT);
  const en = hook(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('C'));
  const full = readFileSync(file, 'utf8');
  writeFileSync(file, full.slice(0, full.indexOf(`\n${HOOK_WORDS_MARKER}\n`) + 1));
  const ja = hook(dir, SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale('ja_JP.UTF-8'));
  assert.deepEqual(ja, en);
});

test('`hook remind` in Japanese and Korean: the suggestion in the language, its system, mark and trigger as they are; through the installed hook script and through `session-ledger`', () => {
  const dir = installed();
  const input = JSON.stringify({
    session_id: SID,
    transcript_path: transcriptAt(20),
    cwd: dir,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'go on',
  });
  const record = path.join(dir, '.claude/session-ledger/remind', `${SID}.json`);
  const remindLine = (script: string, lang: string): string => {
    rmSync(record, { force: true });
    const r =
      script === SCRIPT
        ? said(dir, script, ['hook', 'remind'], input, locale(lang))
        : cli(['hook', 'remind'], { cwd: dir, input, env: { ...projectEnv(dir), ...locale(lang) } });
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(r.stdout, '', `${script} ${lang}: silent`);
    return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
  };
  const english = suggestionLine('S3', 1, 20);
  assert.equal(
    english,
    'Session Ledger: context is at 20%, past the 15% mark of S3 Groundwork: propose a checkpoint to the user. To run: /checkpoint',
  );
  for (const script of [SCRIPT, path.join(REPO, 'dist', 'cli.js')]) {
    assert.equal(remindLine(script, 'C'), english, script);
    for (const l of LANGS) {
      const line = remindLine(script, l.locale);
      assert.match(line, l.script, `${script} ${l.name}: ${line}`);
      assert.equal(
        line,
        l.tr(
          'Session Ledger: context is at {0}%, past the {1}% mark of {2}: propose a checkpoint to the user. To run: {3}',
          20,
          15,
          'S3 Groundwork',
          '/checkpoint',
        ),
        `${script} ${l.name}`,
      );
    }
  }
});

test("the hook script's words are the extension's: every template of the guard and the reminder, each translation as the l10n bundles hold it", async () => {
  const { templatesIn } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    templatesIn: (src: string) => string[];
  };
  const text = readFileSync(HOOK_SCRIPT, 'utf8');
  const at = text.indexOf(`\n${HOOK_WORDS_MARKER}\n`);
  assert.ok(at > 0);
  const body = text
    .slice(text.indexOf('\n/*\n', at) + 4, text.indexOf('\n*/\n}', at))
    .split('*\\/')
    .join('*/');
  const mod = { exports: {} as Record<string, unknown> };
  new Function('module', body)(mod);
  const bundle = (lang: string) =>
    JSON.parse(readFileSync(path.join(REPO, 'l10n', `bundle.l10n.${lang}.json`), 'utf8')) as Record<string, string>;
  const [ja, ko] = [bundle('ja'), bundle('ko')];
  const words = mod.exports;
  for (const [english, tr] of Object.entries(words)) assert.deepEqual(tr, [ja[english], ko[english]], english);
  const said = [
    ...WORDED_MODULES.flatMap((src) => templatesIn(readFileSync(path.join(REPO, src), 'utf8'))),
    ...passedOn(),
  ];
  for (const src of ['src/core/hooks/guard.ts', 'src/core/hooks/remind.ts', 'src/core/checkpoint/marker.ts'])
    assert.ok(WORDED_MODULES.includes(src), src);
  // The manual items and S0's switched-off line are there; every template of the guard and the reminder too.
  assert.ok(said.includes("The user's last request is completed or recorded."));
  assert.ok(said.includes('Checkpoint skipped - session.ledger not enabled in .agents.yml'));
  assert.deepEqual(Object.keys(words).sort(), [...new Set(said)].sort());
});

test("the guard's last step where the systems end differently (the demo's five): the checkpoint's sentence for it, in Japanese and Korean from the hook script's own words", () => {
  const dir = workspace({});
  copyDemo(dir);
  for (const l of LANGS) {
    const r = hook(dir, HOOK_SCRIPT, ['hook', 'pre-compact'], preCompact(dir), locale(l.locale));
    assert.equal(r.code, 2, r.stderr);
    const last = r.stderr
      .split('\n')
      .filter((x) => /^\d+\. /.test(x))
      .pop();
    assert.equal(
      last?.replace(/^\d+\. /, ''),
      l.tr(
        'The systems here end differently. Type one of the two, not both: /clear ({0}) starts afresh from the state files, with the resume prompt; /compact ({1}) keeps a summary of this conversation too. Either is safe: the files are checked and the marker lets /compact through.',
        'S0, S3',
        'S1, S2, S4',
      ),
      `${l.name}:\n${r.stderr}`,
    );
    assert.match(last ?? '', l.script);
  }
});
