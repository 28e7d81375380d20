import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test("src/core and src/cli never import 'vscode'", () => {
  for (const dir of ['src/core', 'src/cli']) {
    for (const f of walk(path.join(REPO, dir)).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(f, 'utf8');
      assert.doesNotMatch(src, /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)/, `${path.relative(REPO, f)} imports vscode`);
    }
  }
});

test('src/core never reads a transcript whole (no readFile in context/)', () => {
  let files: string[] = [];
  try {
    files = walk(path.join(REPO, 'src/core/context')).filter((f) => f.endsWith('.ts'));
  } catch {
    return;
  }
  for (const f of files) assert.doesNotMatch(readFileSync(f, 'utf8'), /readFileSync|\.readFile\(/, path.relative(REPO, f));
});
