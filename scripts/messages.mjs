#!/usr/bin/env node
/**
 * Every message template of the core: the string literal of each `t('…')` call under src/core
 * (`t` accepts string literals only, so this list is complete); `cliTemplates`, the same under src/cli. Used by the tests that keep the
 * translations complete; run it to print the list as JSON.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Unescape a single- or double-quoted JS string literal's body, or a backtick one without substitutions. */
function unescape(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_m, e) => {
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0' }[e] ?? e;
  });
}

/** The templates of `t('…')` calls in a source text, in order. */
export function templatesIn(src) {
  const out = [];
  const re = /(?<![\w$.])t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{))*)`)/g;
  for (const m of src.matchAll(re)) out.push(unescape(m[1] ?? m[2] ?? m[3]));
  return out;
}

/** Every template under `dir` of the repository, deduplicated, sorted. */
function templatesUnder(dir, root) {
  const all = new Set();
  for (const f of walk(path.join(root, dir)).filter((x) => x.endsWith('.ts')))
    for (const t of templatesIn(readFileSync(f, 'utf8'))) all.add(t);
  return [...all].sort();
}

/** Every template under src/core, deduplicated, sorted. */
export function coreTemplates(root = REPO) {
  return templatesUnder('src/core', root);
}

/** Every template of the command-line tool's own words (src/cli: usage errors, refusals, `context`), deduplicated, sorted. */
export function cliTemplates(root = REPO) {
  return templatesUnder('src/cli', root);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(`${JSON.stringify(coreTemplates(), null, 2)}\n`);
}
