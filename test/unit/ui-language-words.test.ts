/**
 * What a user whose VS Code speaks Japanese or Korean reads: one word for one thing across the status
 * item, the guard and the checks, and no English phrase left inside a translated sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import type { Check, ContextUsage } from '../../src/core/model/model';
import { evaluate } from '../../src/core/report/evaluate';
import { starterFor } from '../../src/core/systems/starter';
import { statusView } from '../../src/extension/pure/status-text';
import { docTooltip } from '../../src/extension/pure/tree-text';
import {
  demoRepo,
  enT,
  fixtureCopy,
  git,
  gitInit,
  jaT,
  koT,
  oneCheck,
  REPO,
  systemIn,
  workspace,
  write,
} from './helpers';

const bundle = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8')) as Record<string, string>;

test("Japanese: the context's compaction (/compact) is 圧縮 everywhere, as the guard says it; コンパクト化 is only the S4 state file's own compaction", () => {
  const ja = bundle('ja');
  // The strings about the agent's context being compacted: the status item's tooltip shows two of them on one line.
  const context = Object.keys(ja).filter(
    (k) =>
      /^Compaction stopped\b/.test(k) ||
      [
        'after compaction',
        'Compactions in this session',
        'Have the agent update the state file from this session before compacting.',
        'checkpoint complete. Run /compact to compress context. Handoff: {0}',
      ].includes(k),
  );
  assert.ok(context.length > 10, `${context.length} strings`);
  for (const k of context) {
    assert.match(ja[k], /圧縮/, `ja "${k}": ${ja[k]}`);
    assert.doesNotMatch(ja[k], /コンパクト/, `ja "${k}": ${ja[k]}`);
  }
});

test("Create starter file's picker: each system's line under its name is said in the user's language (ja, ko)", async () => {
  const { SYSTEM_IDS } = await import('../../src/core/model/model');
  for (const lang of ['ja', 'ko']) {
    const table = bundle(lang);
    for (const id of SYSTEM_IDS) {
      const { description } = starterFor(id);
      assert.equal(typeof description.id, 'string', `${id}: the description is a message template`);
      assert.ok(table[description.id], `${lang} ${id}: no entry for "${description.id}"`);
    }
  }
});

/** A check's message in a language, as the tree, the Problems panel and the checklist render it. */
const rendered = (c: Check, t: typeof jaT): string => t(c.messageId, ...c.args);

/**
 * English words left in a rendered message: lowercase words, once the names a translation keeps as the
 * files write them (section and field names, file paths) are taken out.
 */
function englishLeft(text: string): string[] {
  const kept = text
    .replace(/"?Docs touched"?|Working Set|Key Files|MEMORY\.md|PLAN|VERIFIED|DROPPED/g, ' ')
    .replace(/\S*[/.]\S*/g, ' ');
  return kept.match(/\b[a-z]{2,}\b/g) ?? [];
}

test('the checks whose message names what they verified ("Docs touched" links, Working Set files, a VERIFIED command, uncommitted changes) say it in Japanese and Korean, no English phrase inside the sentence', async () => {
  const seen: string[] = [];
  const look = (checks: readonly Check[], ids: readonly string[]) => {
    for (const c of checks.filter((x) => ids.includes(x.id)))
      for (const [lang, t] of [
        ['ja', jaT],
        ['ko', koT],
      ] as const) {
        const said = rendered(c, t);
        seen.push(`${c.system} ${c.id} ${c.status}`);
        assert.deepEqual(englishLeft(said), [], `${lang} ${c.system} ${c.id}: ${said}`);
      }
  };
  // The demo: every system's references exist, S2's VERIFIED and DROPPED items carry theirs.
  const demo = await evaluate(demoRepo());
  for (const s of demo.systems) look(s.checks, ['stale-paths', 'verified-command', 'dropped-reason']);
  // A new S3 starter: no "Docs touched" link yet.
  const fresh = workspace({});
  for (const f of starterFor('S3').files) write(fresh, f.path, f.content);
  gitInit(fresh);
  look((await systemIn(fresh, 'S3')).checks, ['stale-paths']);
  // The state file older than the last commit, then than an uncommitted change.
  const dir = fixtureCopy('s3/good');
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  const old = (Date.now() - 3 * 3600_000) / 1000;
  utimesSync(path.join(dir, 'docs/state/STATE.md'), old, old);
  gitInit(dir);
  look((await systemIn(dir, 'S3')).checks, ['fresh']);
  write(dir, 'src/a.ts', 'export const a = 2;\n');
  look((await systemIn(dir, 'S3')).checks, ['fresh']);
  for (const want of [
    'S0 stale-paths pass',
    'S1 stale-paths pass',
    'S2 stale-paths pass',
    'S3 stale-paths pass',
    'S3 stale-paths skipped',
    'S2 verified-command pass',
    'S2 dropped-reason pass',
  ])
    assert.ok(seen.includes(want), `${want} among ${JSON.stringify([...new Set(seen)])}`);
  assert.equal(seen.filter((x) => x === 'S3 fresh warn').length, 4, JSON.stringify(seen));
});

test('work-explained does not say "no uncommitted changes" over a new state file git lists as untracked: it says the state files do not count (en, ja, ko)', async () => {
  // A new project: one commit, then Create starter file; `git status` lists docs/ as untracked.
  const dir = workspace({ 'README.md': '# p\n' });
  gitInit(dir);
  for (const f of starterFor('S3').files) write(dir, f.path, f.content);
  assert.match(git(dir, 'status', '--porcelain'), /\?\? docs\//);
  const c = oneCheck((await systemIn(dir, 'S3')).checks, 'work-explained');
  assert.equal(c.status, 'pass', c.message);
  assert.match(c.message, /besides the state files/, c.message);
  assert.match(rendered(c, jaT), /状態ファイル/, rendered(c, jaT));
  assert.match(rendered(c, koT), /상태 파일/, rendered(c, koT));
});

test('one word for the handoff: 引き継ぎ in Japanese, 인수인계 in Korean, in every translated string (not ハンドオフ / 핸드오프 in some)', () => {
  for (const [lang, word, other] of [
    ['ja', '引き継ぎ', 'ハンドオフ'],
    ['ko', '인수인계', '핸드오프'],
  ] as const) {
    const tables = [
      bundle(lang),
      JSON.parse(readFileSync(path.join(REPO, `package.nls.${lang}.json`), 'utf8')),
    ] as Array<Record<string, string>>;
    const values = tables.flatMap((x) => Object.values(x));
    assert.ok(values.filter((v) => v.includes(word)).length > 10, `${lang}: ${word} in use`);
    assert.deepEqual(
      values.filter((v) => v.includes(other)),
      [],
      `${lang}: ${other} where the rest says ${word}`,
    );
  }
});

test('Japanese: "when it is true" of a manual item is one phrase, 事実になったら, wherever an item is to be ticked or confirmed', () => {
  const ja = bundle('ja');
  const keys = Object.keys(ja).filter((k) => /\bwhen (it is|they are) true\b/i.test(k));
  assert.ok(keys.length >= 6, keys.join('\n'));
  for (const k of keys) assert.match(ja[k], /事実になったら/, `ja "${k}": ${ja[k]}`);
});

test("the status item's tooltip after /compact: where the figure comes from and how often this session was compacted are two lines, not one run together", () => {
  const at = Date.now() - 60_000;
  const u = {
    agent: 'claude',
    sessionId: 's1',
    model: 'claude-sonnet-4',
    usedTokens: 3_000,
    windowTokens: 200_000,
    percent: 1.5,
    source: 'transcript',
    afterCompaction: true,
    at: new Date(at).toISOString(),
  } as unknown as ContextUsage;
  for (const t of [enT, jaT, koT]) {
    const tip = statusView(t, u, { profile: 'S3', propose: 15, urgent: 40 }, 'ok', undefined, {
      count: 1,
      advice: null,
    }).tooltip;
    const lines = tip.split('\n');
    const source = lines.findIndex((l) => l.startsWith(`${t('Source')}:`));
    assert.ok(source >= 0 && lines[source + 1].startsWith(t('Compactions in this session')), tip);
    // In Markdown a line break that ends in no two spaces (or a backslash) joins the next line to it.
    assert.match(
      lines[source],
      / {2}$/,
      `${JSON.stringify(lines[source])} runs into ${JSON.stringify(lines[source + 1])}`,
    );
  }
});

test("the tree names each document's part in the system by words in the user's language, not by the model's ids (contextLog, projectState)", async () => {
  const demo = await evaluate(demoRepo());
  const roles = new Set<string>();
  for (const s of demo.systems)
    for (const d of s.docs) {
      roles.add(d.role);
      for (const [lang, t] of [
        ['en', enT],
        ['ja', jaT],
        ['ko', koT],
      ] as const) {
        const second = docTooltip(t, s, d.relPath, d).split('\n')[1];
        const role = second.split(' · ')[1];
        assert.doesNotMatch(role, /[a-z][A-Z]/, `${lang} ${d.relPath}: ${second}`);
        if (lang !== 'en') assert.doesNotMatch(role, /^[\x20-\x7e]+$/, `${lang} ${d.relPath}: ${second}`);
      }
    }
  // The demo holds documents of most kinds; contextLog and projectState among them.
  assert.ok(roles.has('contextLog') && roles.has('projectState') && roles.size >= 8, JSON.stringify([...roles]));
});
