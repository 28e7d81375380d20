import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { format, t } from '../../src/core/model/messages';
import type { Said } from '../../src/core/model/model';
import { FIXTURES, workspace } from './helpers';

const loadTemplates = async (): Promise<{ coreTemplates: () => string[]; templatesIn: (src: string) => string[] }> =>
  import(path.join(FIXTURES, '..', '..', 'scripts', 'messages.mjs'));

/** Every fixture workspace (a folder of test/fixtures/sN/). */
function fixtureRoots(): string[] {
  const out: string[] = [];
  for (const sys of ['s0', 's1', 's2', 's3', 's4']) {
    const dir = path.join(FIXTURES, sys);
    for (const n of readdirSync(dir)) if (statSync(path.join(dir, n)).isDirectory()) out.push(path.join(dir, n));
  }
  return out;
}

function assertSaid(x: Said, where: string, templates: Set<string>): void {
  assert.ok(templates.has(x.messageId), `${where}: message id not in the catalogue: ${JSON.stringify(x.messageId)}`);
  assert.equal(format(x.messageId, x.args), x.message, `${where}: the message is its template filled with its args`);
  if (x.hint !== undefined) {
    assert.ok(
      x.hintId !== undefined && templates.has(x.hintId),
      `${where}: hint id not in the catalogue: ${JSON.stringify(x.hintId)}`,
    );
    assert.equal(
      format(x.hintId ?? '', x.hintArgs ?? []),
      x.hint,
      `${where}: the hint is its template filled with its args`,
    );
  }
}

test('t(): the template is the id, {0} {1} … are filled, other braces stay', () => {
  const m = t('Set `session: { ledger: true }` in {0} ({1} lines).', '.agents.yml', 3);
  assert.deepEqual(m, {
    id: 'Set `session: { ledger: true }` in {0} ({1} lines).',
    args: ['.agents.yml', '3'],
    text: 'Set `session: { ledger: true }` in .agents.yml (3 lines).',
  });
  assert.equal(format('{1} {0} {2}', ['a', 'b']), 'b a {2}');
});

test('the catalogue lists every t() literal, escapes read as the runtime reads them', async () => {
  const { templatesIn, coreTemplates } = await loadTemplates();
  assert.deepEqual(templatesIn("x = t('it\\'s {0}', a); y = t(\"say \\\"hi\\\"\"); z = at('no'); w = t(`plain`);"), [
    "it's {0}",
    'say "hi"',
    'plain',
  ]);
  const all = coreTemplates();
  assert.ok(all.length > 150, `${all.length} templates`);
  assert.ok(all.includes("The user's last request is completed or recorded."));
});

test('every check and finding of every fixture carries a catalogued message id, and its English text is that template filled', async () => {
  const templates = new Set((await loadTemplates()).coreTemplates());
  const roots = [
    ...fixtureRoots(),
    workspace({ 'docs/state/STATE.md': Buffer.from([0, 1, 2, 0, 255]) }),
    workspace({ '.agents.yml': 'session: [\n' }),
  ];
  let checks = 0;
  for (const root of roots) {
    const r = await evaluate(root, { noGit: true });
    for (const s of r.systems) {
      for (const c of s.checks) {
        assertSaid(c, `${path.relative(FIXTURES, root)} ${s.id} ${c.id}`, templates);
        checks++;
      }
      for (const d of s.docs)
        for (const f of d.findings)
          assertSaid(f, `${path.relative(FIXTURES, root)} ${d.relPath} finding ${f.id}`, templates);
    }
  }
  assert.ok(checks > 200, `${checks} checks seen`);
});

/** The literal runs of a template (between its `{n}` slots) that hold at least three words. */
function wordyPieces(template: string): string[] {
  return template
    .split(/\{\d+\}/)
    .filter((p) => (p.match(/\p{L}{2,}/gu) ?? []).length >= 3)
    .map((p) => p.trim());
}

test('no message argument is English prose: arguments are data, every sentence is a template of its own', async () => {
  const templates = (await loadTemplates()).coreTemplates();
  const pieces = [...new Set(templates.flatMap(wordyPieces))];
  const roots = [
    ...fixtureRoots(),
    workspace({ 'docs/state/STATE.md': Buffer.from([0, 1, 2, 0, 255]) }),
    workspace({
      'memory/session-handoff-LATEST.md': '# Session Handoff\n\n## What to do now\n1. x\n',
      'memory/.session-handoff.sha256': Buffer.from([0, 1, 2, 0]),
    }),
  ];
  const bad: string[] = [];
  for (const root of roots) {
    const r = await evaluate(root, { noGit: true });
    for (const s of r.systems) {
      const said = [...s.checks, ...s.docs.flatMap((d) => d.findings)];
      for (const x of said) {
        // An argument that is a message of its own (a span of time, a template part's name) is a template, not prose.
        const data = (args: readonly string[] = [], msgs: Said['argMsgs']) => args.filter((_, i) => !msgs?.[i]);
        for (const a of [...data(x.args, x.argMsgs), ...data(x.hintArgs, x.hintArgMsgs)]) {
          const hit = pieces.find((p) => a.includes(p));
          if (hit)
            bad.push(
              `${path.relative(FIXTURES, root)} ${s.id} ${x.messageId}: argument "${a}" holds the sentence "${hit}"`,
            );
        }
      }
    }
  }
  assert.deepEqual(bad, []);
});

test('read failures are messages of their own per kind: no English reason travels as an argument', async () => {
  const root = workspace({ 'docs/state/STATE.md': Buffer.from([0, 1, 2, 0, 255]) });
  const r = await evaluate(root, { noGit: true });
  const f = r.systems.flatMap((s) => s.docs.flatMap((d) => d.findings)).find((x) => x.id === 'readable');
  assert.ok(f);
  assert.deepEqual(
    [f.messageId, f.args],
    ['Cannot read the document: binary content (NUL bytes): not a text file.', []],
  );
  const s1 = workspace({
    'memory/session-handoff-LATEST.md': '# Session Handoff\n',
    'memory/.session-handoff.sha256': Buffer.from([0, 1, 2, 0]),
  });
  const a = (await evaluate(s1, { noGit: true })).systems
    .find((s) => s.id === 'S1')
    ?.checks.find((c) => c.id === 'attestation');
  assert.ok(a);
  assert.deepEqual(
    [a.status, a.messageId, a.args],
    [
      'fail',
      'TAMPERED: {0} cannot be read (binary content (NUL bytes): not a text file).',
      ['memory/.session-handoff.sha256'],
    ],
  );
});
