import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { filesUnder, REPO } from './helpers';

test("src/core and src/cli never import 'vscode'", () => {
  for (const dir of ['src/core', 'src/cli']) {
    for (const f of filesUnder(path.join(REPO, dir)).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(f, 'utf8');
      assert.doesNotMatch(
        src,
        /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)/,
        `${path.relative(REPO, f)} imports vscode`,
      );
    }
  }
});

test('the extension writes no file of its own: every write goes through the core (its lock, compare-and-swap and link refusals), never a WorkspaceEdit file operation or workspace.fs', () => {
  for (const f of filesUnder(path.join(REPO, 'src/extension')).filter((f) => f.endsWith('.ts'))) {
    const src = readFileSync(f, 'utf8');
    assert.doesNotMatch(
      src,
      /\.(createFile|deleteFile|renameFile)\(|workspace\.fs\.(writeFile|delete|rename|copy)\b|\b(writeFileSync|appendFileSync|renameSync|rmSync|unlinkSync)\b/,
      `${path.relative(REPO, f)} writes a file itself`,
    );
  }
});

test('Restricted Mode writes nothing and runs nothing: every module of the extension that calls a write action or runs the repository checks asks for trust', () => {
  const acting =
    /\b(applyAttest|applyRotateLog|applyEnableLedger|applyCompactState|applyHooksPlan|writeStarter|checkpoint|runRepoChecks)\(/;
  const asks = /\brequireTrust\(\)|workspace\.isTrusted\b/;
  const rel = (f: string) => path.relative(REPO, f).split(path.sep).join('/');
  // The code only: comments name these functions too.
  const codeOf = (f: string) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\*|\/\/|\/\*)/.test(l))
      .join('\n');
  const files = filesUnder(path.join(REPO, 'src/extension')).filter((f) => f.endsWith('.ts'));
  const callers: string[] = [];
  for (const f of files) {
    if (!acting.test(codeOf(f))) continue;
    callers.push(rel(f));
    if (asks.test(codeOf(f))) continue;
    // A vscode-free module (src/extension/pure/) cannot ask: every module of the extension that imports it does.
    assert.ok(rel(f).startsWith('src/extension/pure/'), `${rel(f)} acts without asking for trust`);
    const target = rel(f).replace(/\.ts$/, '');
    const importers = files.filter((g) =>
      importsOf(g).some((spec) => spec.startsWith('.') && rel(path.resolve(path.dirname(g), spec)) === target),
    );
    assert.ok(importers.length > 0, `${rel(f)} acts, and no module of the extension imports it`);
    for (const g of importers)
      assert.match(codeOf(g), asks, `${rel(g)} runs ${rel(f)}, a write action, without asking for trust`);
  }
  assert.ok(callers.length >= 7, `the callers found: ${callers.join(', ')}`);
});

test('src/core never reads a transcript whole (no readFile in context/)', () => {
  let files: string[] = [];
  try {
    files = filesUnder(path.join(REPO, 'src/core/context')).filter((f) => f.endsWith('.ts'));
  } catch {
    return;
  }
  for (const f of files)
    assert.doesNotMatch(readFileSync(f, 'utf8'), /readFileSync|\.readFile\(/, path.relative(REPO, f));
});

/** Relative module specifiers a TypeScript file imports (static and dynamic). */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

function importsInto(fromDir: string, target: string): string[] {
  const bad: string[] = [];
  for (const f of filesUnder(path.join(REPO, fromDir)).filter((x) => x.endsWith('.ts'))) {
    for (const spec of importsOf(f)) {
      if (!spec.startsWith('.')) continue;
      const resolved = path
        .relative(REPO, path.resolve(path.dirname(f), spec))
        .split(path.sep)
        .join('/');
      if (resolved === target || resolved.startsWith(`${target}/`))
        bad.push(`${path.relative(REPO, f)} imports ${spec}`);
    }
  }
  return bad;
}

/** Every reader: each system's `reader*.ts`, the readers' index and the shared item helpers. */
function readerFiles(): string[] {
  const systems = path.join(REPO, 'src/core/systems');
  const inHomes = filesUnder(systems).filter((f) => /\/s\d\/reader[^/]*\.ts$/.test(f));
  return [...inHomes, path.join(systems, 'readers.ts'), path.join(REPO, 'src/core/markdown/items.ts')];
}

/** Every rule file: each system's `rules.ts` and the shared rules in `src/core/rules/`. */
function ruleFiles(): string[] {
  return [
    ...filesUnder(path.join(REPO, 'src/core/systems')).filter((f) => /\/s\d\/rules\.ts$/.test(f)),
    ...filesUnder(path.join(REPO, 'src/core/rules')).filter((f) => f.endsWith('.ts')),
  ];
}

test('readers read, rules judge: no reader imports a rule file', () => {
  const rules = new Set(ruleFiles().map((f) => path.relative(REPO, f).split(path.sep).join('/').replace(/\.ts$/, '')));
  const bad: string[] = [];
  for (const f of readerFiles()) {
    for (const spec of importsOf(f)) {
      if (!spec.startsWith('.')) continue;
      const resolved = path
        .relative(REPO, path.resolve(path.dirname(f), spec))
        .split(path.sep)
        .join('/');
      if (rules.has(resolved) || resolved === 'src/core/rules' || resolved.startsWith('src/core/rules/'))
        bad.push(`${path.relative(REPO, f)} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

/** Comparisons of a count against a literal number of 2 or more (`n >= 3`), heading levels excepted. */
function literalThresholds(src: string): string[] {
  const code = src.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  return [...code.matchAll(/([\w.)\]]+)\s*(?:>=?|<=?)\s*(\d+(?:\.\d+)?)\b/g)]
    .filter((m) => Number(m[2]) >= 2 && !/level$/.test(m[1]))
    .map((m) => m[0]);
}

test('readers read, rules judge: no reader builds a finding or a message, or holds a cap, a threshold or the clock', () => {
  const files = readerFiles();
  assert.ok(files.length >= 12, 'every reader is looked at');
  for (const f of files) {
    const rel = path.relative(REPO, f);
    const src = readFileSync(f, 'utf8');
    assert.ok(
      !importsOf(f).some((spec) => /(?:^|\/)messages$/.test(spec)),
      `${rel} imports messages: findings and their texts belong to the rules`,
    );
    assert.doesNotMatch(
      src,
      /\bseverity\s*:|\bproblems\s*[:.=]|\bfindings?\(|\bfindings\s*(?::|\.push)|\bFinding\b/,
      `${rel} constructs a finding`,
    );
    assert.doesNotMatch(
      src,
      /\b(?:CAPS|ARCHIVE|CURATION)\b|\bnow\s*:\s*number|\bDate\.now\(/,
      `${rel} judges against a cap, a threshold or the clock`,
    );
    assert.deepEqual(
      literalThresholds(src),
      [],
      `${rel} compares against a literal threshold: it belongs in the facts table`,
    );
  }
});

test('a check message states a threshold through an argument from the facts table, never as a literal number in its template', () => {
  for (const f of ruleFiles()) {
    const literal = [...readFileSync(f, 'utf8').matchAll(/\bt\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)]
      .map((m) => m[1] ?? m[2])
      .filter((tpl) => /(?:≥|≤|<|>)\s*\d/.test(tpl));
    assert.deepEqual(literal, [], path.relative(REPO, f));
  }
});

test('activationEvents are workspaceContains: of every distinctive presence glob in the facts table, none of the generic names', async () => {
  const { activationGlobs, genericGlobs, presenceGlobs } = await import('../../src/core/systems/facts');
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { activationEvents: string[] };
  const contains = pkg.activationEvents
    .filter((e) => e.startsWith('workspaceContains:'))
    .map((e) => e.slice('workspaceContains:'.length));
  assert.deepEqual(
    contains,
    activationGlobs(),
    'package.json activationEvents must list workspaceContains:<glob> for every distinctive presence glob, in the order of src/core/systems/facts.ts',
  );
  assert.deepEqual(genericGlobs(), ['CONTINUITY.md', 'MEMORY.md', 'context-log.md', 'tasks/lessons.md', 'PROGRESS.md']);
  for (const g of genericGlobs()) {
    assert.ok(presenceGlobs().includes(g), `${g} is a presence glob of a system`);
    assert.ok(!contains.includes(g), `${g} is a generic name: it must not activate the extension`);
  }
  // No other activation event wakes the extension everywhere (its view and commands activate it on use).
  assert.deepEqual(
    pkg.activationEvents.filter((e) => !e.startsWith('workspaceContains:')),
    [],
  );
});

test('the view (and its activity bar icon) shows only where a system was detected or the user ran a Session Ledger command', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    contributes: { views: Record<string, Array<{ when?: string }>> };
  };
  for (const v of pkg.contributes.views.sessionLedger)
    assert.equal(v.when, 'sessionLedger.detected || sessionLedger.viewRequested');
  const keys = readFileSync(path.join(REPO, 'src/extension/context-keys.ts'), 'utf8');
  assert.match(keys, /set\('sessionLedger\.detected', systems\.length > 0\)/);
  const commands = readFileSync(path.join(REPO, 'src/extension/commands/index.ts'), 'utf8');
  assert.match(commands, /'setContext', 'sessionLedger\.viewRequested', true/);
});

test('the README states the activation events: every distinctive glob, and each generic name as one that does not activate', async () => {
  const { activationGlobs, genericGlobs } = await import('../../src/core/systems/facts');
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## When the extension starts'));
  const body = section.slice(0, section.indexOf('\n## ', 5));
  const [activates, generic] = body.split('Generic names');
  const spans = (t: string) => [...t.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  assert.deepEqual(spans(activates), activationGlobs());
  for (const g of genericGlobs()) assert.ok(spans(generic).includes(g), g);
});

test('the extension watches the presence globs of the facts table and declares no list of its own', async () => {
  const { presenceGlobs } = await import('../../src/core/systems/facts');
  const { watchGlobs } = await import('../../src/extension/pure/globs');
  const globs = watchGlobs(['extra/x.md']);
  for (const g of presenceGlobs()) assert.ok(globs.includes(g), g);
  assert.ok(globs.includes('extra/x.md'));
  // No other file of the extension or the webview spells out a presence glob.
  for (const dir of ['src/extension', 'webview']) {
    for (const f of filesUnder(path.join(REPO, dir)).filter((x) => x.endsWith('.ts'))) {
      const src = readFileSync(f, 'utf8');
      for (const g of presenceGlobs())
        assert.ok(
          !src.includes(`'${g}'`),
          `${path.relative(REPO, f)} declares '${g}': read it from src/core/systems/facts.ts`,
        );
    }
  }
});

test('the facts table has one entry per system id, each naming its own id', async () => {
  const { FACTS, ALL_FACTS } = await import('../../src/core/systems/facts');
  const { SYSTEM_IDS } = await import('../../src/core/model/model');
  assert.deepEqual(Object.keys(FACTS), [...SYSTEM_IDS]);
  assert.deepEqual(
    ALL_FACTS.map((f) => f.id),
    [...SYSTEM_IDS],
  );
});

test('the webview never imports from src/extension/; the protocol both sides use is src/protocol/', () => {
  assert.deepEqual(importsInto('webview', 'src/extension'), []);
  assert.deepEqual(importsInto('src/protocol', 'src/extension'), []);
  const panel = readFileSync(path.join(REPO, 'src/extension/checklist/panel.ts'), 'utf8');
  const main = readFileSync(path.join(REPO, 'webview/main.ts'), 'utf8');
  assert.match(panel, /from '\.\.\/\.\.\/protocol\/checklist'/);
  assert.match(main, /from '\.\.\/src\/protocol\/checklist'/);
});
