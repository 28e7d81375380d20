import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/evaluate';
import { format, t } from '../../src/core/messages';
import type { Said } from '../../src/core/model';
import { FIXTURES, workspace } from './helpers';

const loadTemplates = async (): Promise<{ coreTemplates: () => string[]; templatesIn: (src: string) => string[] }> => import(path.join(FIXTURES, '..', '..', 'scripts', 'messages.mjs'));

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
    assert.ok(x.hintId !== undefined && templates.has(x.hintId), `${where}: hint id not in the catalogue: ${JSON.stringify(x.hintId)}`);
    assert.equal(format(x.hintId ?? '', x.hintArgs ?? []), x.hint, `${where}: the hint is its template filled with its args`);
  }
}

test('t(): the template is the id, {0} {1} … are filled, other braces stay', () => {
  const m = t('Set `session: { ledger: true }` in {0} ({1} lines).', '.agents.yml', 3);
  assert.deepEqual(m, { id: 'Set `session: { ledger: true }` in {0} ({1} lines).', args: ['.agents.yml', '3'], text: 'Set `session: { ledger: true }` in .agents.yml (3 lines).' });
  assert.equal(format('{1} {0} {2}', ['a', 'b']), 'b a {2}');
});

test('the catalogue lists every t() literal, escapes read as the runtime reads them', async () => {
  const { templatesIn, coreTemplates } = await loadTemplates();
  assert.deepEqual(templatesIn("x = t('it\\'s {0}', a); y = t(\"say \\\"hi\\\"\"); z = at('no'); w = t(`plain`);"), ["it's {0}", 'say "hi"', 'plain']);
  const all = coreTemplates();
  assert.ok(all.length > 150, `${all.length} templates`);
  assert.ok(all.includes("The user's last request is completed or recorded."));
});

test('every check and finding of every fixture carries a catalogued message id, and its English text is that template filled', async () => {
  const templates = new Set((await loadTemplates()).coreTemplates());
  const roots = [...fixtureRoots(), workspace({ 'docs/state/STATE.md': Buffer.from([0, 1, 2, 0, 255]) }), workspace({ '.agents.yml': 'session: [\n' })];
  let checks = 0;
  for (const root of roots) {
    const r = await evaluate(root, { noGit: true });
    for (const s of r.systems) {
      for (const c of s.checks) {
        assertSaid(c, `${path.relative(FIXTURES, root)} ${s.id} ${c.id}`, templates);
        checks++;
      }
      for (const d of s.docs) for (const f of d.findings) assertSaid(f, `${path.relative(FIXTURES, root)} ${d.relPath} finding ${f.id}`, templates);
    }
  }
  assert.ok(checks > 200, `${checks} checks seen`);
});
