/**
 * What a repository's config costs before git runs in it stays bounded: each config file is parsed
 * once however it is spelled, a config with more files or more filter drivers than git is ever given
 * means git is not run, and nothing waits on git's time limit. The git runs are counted (./git-helpers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { gitInit, workspace } from './helpers';
import { countGit } from './git-helpers';

function repo(): string {
  const dir = workspace({ 'a.txt': 'hello\n' });
  gitInit(dir);
  return dir;
}

test('a config file that includes itself under other spellings is parsed once, not once a spelling a level', async (t) => {
  const dir = repo();
  appendFileSync(path.join(dir, '.git/config'), '[include]\n\tpath = x.cfg\n');
  // Two spellings at each of git's ten include levels: 2^10 files to parse when each spelling counts as a file.
  writeFileSync(path.join(dir, '.git/x.cfg'), '[include]\n\tpath = ./x.cfg\n\tpath = .//x.cfg\n');
  const runs = countGit(t);
  await readGit(dir);
  const parsed = runs().filter((r) => r === 'config').length;
  assert.ok(parsed <= 2, `config files parsed: ${parsed} (the config and x.cfg)`);
});

test('more included config files than git is ever given: git is not run, after a bounded number of parses', async (t) => {
  const dir = repo();
  mkdirSync(path.join(dir, '.git/inc'));
  let includes = '[include]\n';
  for (let i = 0; i < 200; i++) {
    includes += `\tpath = inc/f${i}.cfg\n`;
    writeFileSync(path.join(dir, `.git/inc/f${i}.cfg`), `[user]\n\tx${i} = 1\n`);
  }
  appendFileSync(path.join(dir, '.git/config'), includes);
  const runs = countGit(t);
  assert.equal(await readGit(dir), null);
  const seen = runs();
  assert.ok(seen.length <= 70, `git runs: ${seen.length}`);
  assert.equal(seen.includes('status'), false);
});

test('more filter drivers than git takes as -c options at a reasonable cost: git is not run; a few are overridden', async (t) => {
  const dir = repo();
  const filters = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `[filter "f${from + i}"]\n\tclean = false\n`).join('');
  appendFileSync(path.join(dir, '.git/config'), filters(0, 20));
  const runs = countGit(t);
  assert.ok(await readGit(dir), 'twenty drivers: git runs, each driver emptied');
  assert.ok(runs().includes('status'));
  // git's own time grows with the square of the -c options: 5,000 drivers took it past its 10 s limit on every run.
  appendFileSync(path.join(dir, '.git/config'), filters(20, 2000));
  const before = runs().length;
  assert.equal(await readGit(dir), null);
  assert.equal(runs().slice(before).includes('status'), false);
});
