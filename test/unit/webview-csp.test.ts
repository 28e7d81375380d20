/**
 * The checklist webview's page, as the panel serves it (src/extension/pure/checklist-page.ts): a
 * Content Security Policy that runs nothing but its own script, with a nonce made fresh for every
 * page; nothing of a folder's state in it (the state goes by message to a script that writes text
 * only: extension-manifest.test.ts, "extension layer: no parsing in src/extension …"); a display language that cannot add markup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checklistPage } from '../../src/extension/pure/checklist-page';

const SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const SCRIPT = `${SOURCE}/ext/dist/webview.js`;

/** The policy's directives, each with its sources. */
function policyOf(page: string): Record<string, string[]> {
  const metas = [...page.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)];
  assert.equal(metas.length, 1, 'one policy');
  return Object.fromEntries(
    metas[0][1].split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

test('the checklist page runs only its own script: default-src none, scripts and styles by a fresh nonce, no inline code, no other source', () => {
  const page = checklistPage({ cspSource: SOURCE, script: SCRIPT, language: 'ja' });
  const policy = policyOf(page);
  assert.deepEqual(Object.keys(policy).sort(), ['default-src', 'script-src', 'style-src']);
  assert.deepEqual(policy['default-src'], ["'none'"]);
  // Nothing but the nonce runs: no 'unsafe-inline', no 'unsafe-eval', no host or scheme.
  const nonce = /^'nonce-([A-Za-z0-9+/]{24})'$/.exec(policy['script-src'].join(' '))?.[1];
  assert.ok(nonce, `script-src is the nonce alone: ${policy['script-src'].join(' ')}`);
  assert.deepEqual(policy['style-src'], [SOURCE, `'nonce-${nonce}'`]);
  // The one script (from dist/) and the one stylesheet carry it; no element runs inline code.
  assert.deepEqual(
    [...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]),
    [`<script nonce="${nonce}" src="${SCRIPT}">`],
  );
  assert.deepEqual(
    [...page.matchAll(/<style\b[^>]*>/g)].map((m) => m[0]),
    [`<style nonce="${nonce}">`],
  );
  assert.doesNotMatch(page, /\son[a-z]+\s*=|javascript:/i, 'no inline handler');
  // A nonce is good for one page only.
  const nonces = new Set(
    Array.from({ length: 20 }, () =>
      policyOf(checklistPage({ cspSource: SOURCE, script: SCRIPT, language: 'ja' }))['script-src'].join(),
    ),
  );
  assert.equal(nonces.size, 20, 'a new nonce for every page');
});

test('a display language cannot add markup to the checklist page', () => {
  const page = checklistPage({
    cspSource: SOURCE,
    script: SCRIPT,
    language: 'en"><script>alert(1)</script><meta http-equiv="Content-Security-Policy" content="x',
  });
  assert.match(page, /<html lang="[A-Za-z0-9-]+">/);
  assert.equal([...page.matchAll(/<script\b/g)].length, 1, 'only the page’s own script');
  policyOf(page);
  assert.match(checklistPage({ cspSource: SOURCE, script: SCRIPT, language: '' }), /<html lang="en">/);
});
