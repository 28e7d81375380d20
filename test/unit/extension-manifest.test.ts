/** The manifest keeps the extension contract, and every string has its Japanese and Korean text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const nls = (suffix: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO, `package.nls${suffix}.json`), 'utf8'));
const en = nls('');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const resolve = (s: string): string => s.replace(/^%(.+)%$/, (_, k: string) => en[k] ?? `<missing ${k}>`);

const CONTRACT_COMMANDS: Record<string, string> = {
  'sessionLedger.checkpointNow': 'Checkpoint now',
  'sessionLedger.copyResumePrompt': 'Copy resume prompt',
  'sessionLedger.openChecklist': 'Open checklist',
  'sessionLedger.openStateFile': 'Open state file',
  'sessionLedger.refresh': 'Refresh',
  'sessionLedger.installHooks': 'Install guard hooks (Claude Code, Codex CLI)',
  'sessionLedger.removeHooks': 'Remove guard hooks (Claude Code, Codex CLI)',
  'sessionLedger.createStarterFile': 'Create starter file',
  'sessionLedger.enableLedger': 'Enable S0 majestic ledger (session.ledger in .agents.yml)',
  'sessionLedger.compactAgentState': 'Compact S4 checkpointing (.agents/STATE.md)',
  'sessionLedger.askAgentToCheckpoint': 'Ask the agent to checkpoint',
  'sessionLedger.showLog': 'Show log',
  'sessionLedger.getStarted': 'Get started',
};
const WRITE_COMMANDS = [
  'checkpointNow',
  'installHooks',
  'removeHooks',
  'createStarterFile',
  'compactAgentState',
  'enableLedger',
  'askAgentToCheckpoint',
].map((c) => `sessionLedger.${c}`);

test('manifest: identity, entry points, container, view, welcome', () => {
  assert.equal(`${pkg.publisher}.${pkg.name}`, 'session-ledger.session-ledger');
  assert.equal(pkg.main, './dist/extension.js');
  assert.equal(pkg.engines.vscode, '^1.100.0');
  const c = pkg.contributes;
  assert.deepEqual(
    c.viewsContainers.activitybar.map((v: { id: string; title: string; icon: string }) => [
      v.id,
      resolve(v.title),
      v.icon,
    ]),
    [['sessionLedger', 'Session Ledger', 'media/icon.svg']],
  );
  // The view is named as its container: VS Code then titles the side bar once ("SESSION LEDGER"), not
  // "SESSION LEDGER: LEDGER", which the default width cuts.
  assert.deepEqual(
    c.views.sessionLedger.map((v: { id: string; name: string }) => [v.id, resolve(v.name)]),
    [['sessionLedger.ledger', 'Session Ledger']],
  );
  const welcome = c.viewsWelcome
    .filter((w: { view: string }) => w.view === 'sessionLedger.ledger')
    .map((w: { contents: string }) => resolve(w.contents))
    .join('\n');
  assert.match(welcome, /\(command:sessionLedger\.createStarterFile\)/);
  assert.ok(readFileSync(path.join(REPO, 'media/icon.svg'), 'utf8').includes('<svg'));
});

test('manifest: the contract commands, category "Session Ledger", codicons, one module each', () => {
  const cmds: Array<{ command: string; title: string; category: string; icon: string }> = pkg.contributes.commands;
  assert.deepEqual(Object.fromEntries(cmds.map((c) => [c.command, resolve(c.title)])), CONTRACT_COMMANDS);
  for (const c of cmds) {
    assert.equal(resolve(c.category), 'Session Ledger');
    assert.match(c.icon, /^\$\([a-z-]+\)$/);
  }
  const registered = walk(path.join(REPO, 'src/extension/commands'))
    .map((f) => /export const id = '([^']+)'/.exec(readFileSync(f, 'utf8'))?.[1])
    .filter(Boolean);
  assert.deepEqual([...registered].sort(), Object.keys(CONTRACT_COMMANDS).sort());
});

test('manifest: write commands hidden without trust; limited support in untrusted workspaces', () => {
  const palette: Array<{ command: string; when: string }> = pkg.contributes.menus.commandPalette;
  for (const id of WRITE_COMMANDS)
    assert.match(palette.find((p) => p.command === id)?.when ?? '', /isWorkspaceTrusted/, id);
  for (const [where, items] of Object.entries(pkg.contributes.menus) as Array<
    [string, Array<{ command: string; when?: string }>]
  >) {
    for (const m of items)
      if (WRITE_COMMANDS.includes(m.command)) assert.match(m.when ?? '', /isWorkspaceTrusted/, `${where} ${m.command}`);
  }
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('sessionLedger.claudeHome'));
});

test('manifest: settings have markdownDescription; activation by the home files, not by a generic root name', () => {
  const props: Record<string, { markdownDescription?: string }> = pkg.contributes.configuration.properties;
  for (const k of [
    'sessionLedger.claudeHome',
    'sessionLedger.codexHome',
    'sessionLedger.thresholds.profile',
    'sessionLedger.contextWindow',
    'sessionLedger.extraStatePaths',
    'sessionLedger.markerMaxAgeMinutes',
  ]) {
    assert.ok(props[k], k);
  }
  for (const [k, v] of Object.entries(props))
    assert.ok(v.markdownDescription && !resolve(v.markdownDescription).startsWith('<missing'), k);
  const globs = (pkg.activationEvents as string[])
    .filter((e) => e.startsWith('workspaceContains:'))
    .map(
      (e) =>
        new RegExp(
          `^${e
            .slice(18)
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')}$`,
        ),
    );
  for (const f of [
    'docs/state/STATE.md',
    '.agents/STATE.md',
    '.claude/session-ledger.md',
    'memory/session-handoff-LATEST.md',
    '.agents.yml',
  ]) {
    assert.ok(
      globs.some((re) => re.test(f)),
      f,
    );
  }
  for (const f of ['CONTINUITY.md', 'MEMORY.md', 'PROGRESS.md', 'context-log.md', 'tasks/lessons.md'])
    assert.ok(!globs.some((re) => re.test(f)), f);
  assert.ok(!pkg.activationEvents.includes('*'));
});

test('manifest: the walkthrough has four steps, each with its media and completed by what it asks for (a context key the extension sets), not by a command that may be cancelled', () => {
  const [w] = pkg.contributes.walkthroughs;
  assert.equal(w.id, 'sessionLedger.start');
  assert.deepEqual(
    w.steps.map((s: { id: string }) => s.id),
    ['stateFile', 'hooks', 'meter', 'checkpoint'],
  );
  const events = w.steps.map((s: { completionEvents: string[] }) => s.completionEvents.join(','));
  assert.deepEqual(events, [
    'onContext:sessionLedger.hasStateFile',
    'onContext:sessionLedger.hooksInstalled',
    'onContext:sessionLedger.meterActive',
    'onContext:sessionLedger.hasCheckpoint',
  ]);
  for (const s of w.steps) {
    assert.ok(readFileSync(path.join(REPO, s.media.markdown), 'utf8').startsWith('# '), s.media.markdown);
    for (const m of resolve(s.description).matchAll(/\(command:([\w.]+)\)/g))
      assert.ok(
        pkg.contributes.commands.some((c: { command: string }) => c.command === m[1]),
        `${s.id}: ${m[1]} is a command`,
      );
  }
  const keys = readFileSync(path.join(REPO, 'src/extension/context-keys.ts'), 'utf8');
  for (const k of [
    'sessionLedger.hasStateFile',
    'sessionLedger.hooksInstalled',
    'sessionLedger.meterActive',
    'sessionLedger.hasCheckpoint',
  ])
    assert.ok(keys.includes(`'${k}'`), `${k} is set`);
  assert.equal(pkg.contributes.configuration.properties['sessionLedger.diagnostics.enabled'].default, true);
});

test("manifest: the walkthrough's pages say the status item's icon in words, not as `$(name)` icon syntax, which VS Code draws in labels and tooltips but shows as typed in a walkthrough's Markdown", () => {
  for (const s of pkg.contributes.walkthroughs[0].steps) {
    const text = readFileSync(path.join(REPO, s.media.markdown), 'utf8');
    assert.deepEqual(text.match(/\$\([\w~-]+\)/g) ?? [], [], s.media.markdown);
  }
});

test('l10n: every manifest string in English, Japanese and Korean', () => {
  const keys = new Set<string>();
  JSON.stringify(pkg.contributes, (_, v) => {
    if (typeof v === 'string') for (const m of v.matchAll(/^%(.+)%$/g)) keys.add(m[1]);
    return v;
  });
  for (const k of JSON.stringify(pkg.capabilities).matchAll(/"%([^%"]+)%"/g)) keys.add(k[1]);
  for (const suffix of ['', '.ja', '.ko']) {
    const table = nls(suffix);
    for (const k of keys) assert.ok(table[k], `package.nls${suffix}.json lacks ${k}`);
  }
});

test('l10n: every vscode.l10n string of the extension has a Japanese and a Korean bundle entry', () => {
  const strings = new Set<string>();
  for (const f of walk(path.join(REPO, 'src/extension')).filter((f) => f.endsWith('.ts'))) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)) strings.add(m[2].replace(/\\(['"\\])/g, '$1'));
    assert.doesNotMatch(src, /\bt\(\s*`/, `${path.relative(REPO, f)}: l10n strings must be literals`);
  }
  assert.ok(strings.size > 50);
  for (const lang of ['ja', 'ko']) {
    const bundle: Record<string, string> = JSON.parse(
      readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8'),
    );
    const missing = [...strings].filter((s) => !bundle[s]);
    assert.deepEqual(missing, [], `l10n/bundle.l10n.${lang}.json lacks strings`);
    for (const [k, v] of Object.entries(bundle)) {
      const need = [...k.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
      const have = [...v.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
      assert.deepEqual(have, need, `${lang}: placeholders of "${k}"`);
    }
  }
});

test('extension layer: no parsing in src/extension (no markdown-it, yaml or jsonc there)', () => {
  for (const f of walk(path.join(REPO, 'src/extension')).filter((f) => f.endsWith('.ts'))) {
    const src = readFileSync(f, 'utf8');
    assert.doesNotMatch(src, /from ['"](?:markdown-it|yaml|jsonc-parser)['"]/, path.relative(REPO, f));
  }
  for (const f of walk(path.join(REPO, 'webview')).filter((f) => f.endsWith('.ts'))) {
    assert.doesNotMatch(
      readFileSync(f, 'utf8'),
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write/,
      path.relative(REPO, f),
    );
  }
});

test('l10n: every message template of the core (check messages, fix hints, findings) has a Japanese and a Korean entry', async () => {
  const { coreTemplates } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    coreTemplates: () => string[];
  };
  const templates = coreTemplates();
  assert.ok(templates.length > 100, `${templates.length} templates`);
  for (const lang of ['ja', 'ko']) {
    const bundle: Record<string, string> = JSON.parse(
      readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8'),
    );
    assert.deepEqual(
      templates.filter((m) => !bundle[m]),
      [],
      `l10n/bundle.l10n.${lang}.json lacks core templates`,
    );
  }
});

test("settings: every threshold profile's description says its marks, in English, Japanese and Korean, as the facts table holds them", async () => {
  const { FACTS } = await import('../../src/core/systems/facts');
  const prop = pkg.contributes.configuration.properties['sessionLedger.thresholds.profile'];
  assert.deepEqual(prop.enum, ['auto', 'S0', 'S1', 'S2', 'S3', 'S4']);
  for (const suffix of ['', '.ja', '.ko']) {
    const table = nls(suffix);
    prop.enum.forEach((id: string, i: number) => {
      if (id === 'auto') return;
      const said = table[(prop.enumDescriptions[i] as string).replace(/^%(.+)%$/, '$1')];
      const th = FACTS[id as keyof typeof FACTS].thresholds;
      const marks = [th.propose, th.urgent].filter((n): n is number => n !== null);
      // Korean writes the percent sign right after its number (15%); English and Japanese with a space (15 %).
      const pct = suffix === '.ko' ? '%' : ' %';
      assert.match(
        said,
        new RegExp(marks.map((n) => `${n}${pct}`).join('.*')),
        `package.nls${suffix}.json ${id}: ${said}`,
      );
    });
    // The profile setting's own description names every system's marks.
    for (const id of ['S0', 'S1', 'S2', 'S3', 'S4'] as const)
      assert.match(table['config.thresholds.profile'], new RegExp(`${id}`), `package.nls${suffix}.json names ${id}`);
  }
});

test('l10n: every Japanese and Korean bundle entry is a string in use: a changed template leaves no old entry behind', async () => {
  const { coreTemplates, cliTemplates } = (await import(path.join(REPO, 'scripts', 'messages.mjs'))) as {
    coreTemplates: () => string[];
    cliTemplates: () => string[];
  };
  // The command-line tool's own words (src/cli) are entries of the same bundles, its manuals' prose too.
  const used = new Set([...coreTemplates(), ...cliTemplates()]);
  const { MANUALS, manualIn } = await import('../../src/cli/help');
  for (const m of Object.values(MANUALS)) manualIn(m, (s) => (used.add(s), s));
  for (const dir of ['src/extension', 'src/protocol', 'webview'])
    for (const f of walk(path.join(REPO, dir)).filter((x) => x.endsWith('.ts')))
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g))
        used.add(m[2].replace(/\\(['"\\])/g, '$1'));
  for (const lang of ['ja', 'ko']) {
    const bundle: Record<string, string> = JSON.parse(
      readFileSync(path.join(REPO, `l10n/bundle.l10n.${lang}.json`), 'utf8'),
    );
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !used.has(k)),
      [],
      `l10n/bundle.l10n.${lang}.json holds entries no code says`,
    );
  }
});
