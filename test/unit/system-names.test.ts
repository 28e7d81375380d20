/**
 * One name per system, the same on every surface: the facts table's name after the system's id
 * (`systemName`, e.g. "S3 Groundwork"). The tree's roots and tooltips, the checklist's headings,
 * the starter picker, the settings and command titles (English, Japanese, Korean), the CLI's output,
 * the hooks' texts, the README, the reference and the walkthrough each take it from there; a text
 * that names a system otherwise ("S2 prepare-then-compact", "S3 STATE handoff", "S0 Session Ledger")
 * is found wherever a user reads it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { literals } from './source-literals';
import { SYSTEM_IDS, type SystemId, type WorkspaceReport } from '../../src/core/model/model';
import { FACTS, systemName } from '../../src/core/systems/facts';
import { evaluate } from '../../src/core/report/evaluate';
import { starterFor } from '../../src/core/systems/starter';
import { suggestionLine } from '../../src/core/hooks/remind';
import { MANUALS } from '../../src/cli/help';
import { systemLabel } from '../../src/extension/pure/findings';
import { docTooltip, systemTooltip } from '../../src/extension/pure/tree-text';
import { checklistState } from '../../src/extension/pure/checklist-model';
import { CHECKLIST_STRINGS, cli, demoRepo, enT, escapeRegExp, HOOK_SCRIPT, hookScript, REPO } from './helpers';
import { sessionStart } from './checkpoint-fixtures';

/** A system as the facts table names it: its id, then its name. */
const NAME = (id: SystemId): string => `${id} ${FACTS[id].name}`;

const read = (rel: string): string => readFileSync(path.join(REPO, rel), 'utf8');
const nls = (suffix: string): Record<string, string> => JSON.parse(read(`package.nls${suffix}.json`));

let demo: { dir: string; report: WorkspaceReport } | null = null;
/** The demo workspace (all five systems, in git) and its report. */
async function theDemo(): Promise<{ dir: string; report: WorkspaceReport }> {
  if (!demo) {
    const dir = demoRepo();
    demo = { dir, report: await evaluate(dir) };
  }
  return demo;
}

test('the facts table names each system once: short, distinct, never the product name alone', () => {
  const names = SYSTEM_IDS.map((id) => FACTS[id].name);
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, 5, names.join(' | '));
  for (const id of SYSTEM_IDS) {
    const n = FACTS[id].name;
    assert.equal(systemName(id), NAME(id));
    assert.ok(n.trim() === n && n.length > 0, id);
    assert.doesNotMatch(n, /^S\d/, `${id}: the name does not repeat the id`);
    assert.notEqual(n.toLowerCase(), 'session ledger', `${id} is not called by the product's name`);
    // A tree root says `S3 Groundwork — PARTIAL`. At the default sidebar width (code-server, 1400 × 900) a
    // label of 28 characters ends left of the ellipsis VS Code draws when the row's description overflows;
    // "S2 context-kit ledger — PARTIAL" (31) did not, and "S4 checkpointing state — PARTIAL" (32) was cut.
    // `npm run test:e2e -- --only ui` checks every root as drawn.
    assert.ok(`${NAME(id)} — PARTIAL`.length <= 28, `${NAME(id)} fits a tree root`);
  }
});

test("the tree and the checklist name each system by the facts table's name", async () => {
  const { report } = await theDemo();
  assert.deepEqual(
    report.systems.map((s) => s.id),
    [...SYSTEM_IDS],
  );
  const page = checklistState(report, { name: 'w', uri: 'file:///w' }, CHECKLIST_STRINGS, {
    busy: false,
    trusted: true,
  });
  for (const s of report.systems) {
    assert.equal(systemLabel(s), `${NAME(s.id)} — ${s.label}`);
    assert.equal(systemTooltip(enT, s).split('\n')[0], `${NAME(s.id)} — ${s.label}`);
    const home = s.docs.find((d) => d.relPath === s.home) ?? null;
    assert.ok(
      docTooltip(enT, s, s.home, home)
        .split('\n')[1]
        .startsWith(`${NAME(s.id)} · `),
      s.id,
    );
    assert.equal(page.systems.find((x) => x.id === s.id)?.name, NAME(s.id));
  }
});

test("the starter picker and the manifest's settings and command titles name each system by its name, in every language", () => {
  for (const id of SYSTEM_IDS) assert.ok(starterFor(id).title.startsWith(`${NAME(id)} · `), starterFor(id).title);
  for (const suffix of ['', '.ja', '.ko']) {
    const table = nls(suffix);
    for (const id of SYSTEM_IDS) {
      const said = table[`config.thresholds.profile.${id}`];
      assert.ok(said.startsWith(NAME(id)) && !/^[\p{L}\d]/u.test(said.slice(NAME(id).length)), `${suffix}: ${said}`);
    }
    assert.ok(table['command.enableLedger.title'].includes(NAME('S0')), table['command.enableLedger.title']);
    assert.ok(table['command.compactAgentState.title'].includes(NAME('S4')), table['command.compactAgentState.title']);
  }
});

test("the CLI's status, check and init, and the hooks' texts name each system by its name", async () => {
  const { dir } = await theDemo();
  const env = { CLAUDE_PROJECT_DIR: dir };
  for (const cmd of ['status', 'check']) {
    const out = cli([cmd, '--root', dir], { env }).stdout;
    for (const id of SYSTEM_IDS)
      assert.match(out, new RegExp(`^${escapeRegExp(NAME(id))} — (WORKING|PARTIAL|BROKEN)$`, 'm'), `${cmd}: ${id}`);
  }
  const init = cli(['init', '--root', dir]).stdout;
  for (const id of SYSTEM_IDS) assert.match(init, new RegExp(`^  ${escapeRegExp(NAME(id))}  `, 'm'), `init: ${id}`);
  const resumed = hookScript(HOOK_SCRIPT, ['hook', 'session-start'], {
    cwd: dir,
    input: sessionStart(dir, 'clear'),
    env,
  });
  for (const id of SYSTEM_IDS) assert.ok(resumed.stdout.includes(`(${NAME(id)})`), `session-start: ${id}`);
  for (const id of SYSTEM_IDS)
    for (const band of [1, 2] as const)
      assert.ok(suggestionLine(id, band, 95).includes(NAME(id)), suggestionLine(id, band, 95));
});

/** The cells of a Markdown table's row that starts with `first`. */
function row(md: string, first: RegExp): string[] {
  const line = md.split('\n').find((l) => first.test(l));
  assert.ok(line, `no row ${first}`);
  return line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

test("the README's and the reference's tables of the five systems and the walkthrough name each by its name", () => {
  const readme = read('README.md');
  const reference = read('docs/reference.md');
  const walkthrough = read('media/walkthrough/state-file.md');
  for (const id of SYSTEM_IDS) {
    assert.equal(row(readme, new RegExp(`^\\| \\*\\*${id}\\*\\* \\|`))[1], FACTS[id].name, `README ${id}`);
    assert.equal(row(reference, new RegExp(`^\\| ${id} \\| `))[1], FACTS[id].name, `reference ${id}`);
    assert.equal(row(walkthrough, new RegExp(`^\\| ${id} `))[0], NAME(id), `walkthrough ${id}`);
  }
});

/** Words that, after a system's id, begin a name for it ("S2 prepare-then-compact", "S3 STATE handoff", "S0 session ledger"). */
const NAMING = new Set([
  'session',
  'ledger',
  'handoff',
  'state',
  'agent',
  'context-kit',
  'groundwork',
  'majestic',
  'checkpointing',
  'prepare-then-compact',
  'session-checkpoint',
]);

/** Each place in `text` where an id is followed by a naming word, but not by the system's name. */
function otherNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(S[0-4]) ([\p{L}][\p{L}-]*)(?![\p{L}\d_./-])/gu)) {
    const id = m[1] as SystemId;
    if (!NAMING.has(m[2].toLowerCase())) continue;
    if (!text.startsWith(NAME(id), m.index)) out.push(text.slice(m.index, m.index + 40).split('\n')[0]);
  }
  return out;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

test('no text a user reads names a system otherwise than by its name', async () => {
  const { coreTemplates } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    coreTemplates: () => string[];
  };
  const texts: Array<[string, string]> = coreTemplates().map((m) => ['core template', m]);
  // Every string of the sources: the extension's l10n strings, the CLI's and the hooks' words.
  for (const f of [...walk(path.join(REPO, 'src')), ...walk(path.join(REPO, 'webview'))].filter((x) =>
    x.endsWith('.ts'),
  ))
    for (const s of literals(f)) texts.push([path.relative(REPO, f), s]);
  for (const suffix of ['', '.ja', '.ko'])
    for (const [k, v] of Object.entries(nls(suffix))) texts.push([`package.nls${suffix}.json ${k}`, v]);
  for (const f of [
    'README.md',
    'docs/reference.md',
    ...readdirSync(path.join(REPO, 'media/walkthrough')).map((n) => `media/walkthrough/${n}`),
  ])
    texts.push([f, read(f)]);
  for (const id of SYSTEM_IDS)
    texts.push([`starter ${id}`, `${starterFor(id).title}\n${starterFor(id).description.text}`]);
  const { dir, report } = await theDemo();
  const env = { CLAUDE_PROJECT_DIR: dir };
  for (const args of [['status'], ['check'], ['init'], ['--help'], ...Object.keys(MANUALS).map((c) => [c, '--help'])]) {
    const r = cli([...args, '--root', dir], { env });
    texts.push([`session-ledger ${args.join(' ')}`, r.stdout + r.stderr]);
  }
  for (const source of ['startup', 'clear', 'compact']) {
    const r = hookScript(HOOK_SCRIPT, ['hook', 'session-start'], { cwd: dir, input: sessionStart(dir, source), env });
    texts.push([`hook session-start ${source}`, r.stdout + r.stderr]);
  }
  for (const id of SYSTEM_IDS)
    for (const band of [1, 2] as const) texts.push(['hook remind', suggestionLine(id, band, 95)]);
  for (const s of report.systems) texts.push([`tree ${s.id}`, systemLabel(s)]);
  const bad = texts.flatMap(([where, text]) => otherNames(text).map((x) => `${where}: "${x}"`));
  assert.deepEqual(bad, []);
});
