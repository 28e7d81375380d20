/**
 * A repository's `.git/config` defines a clean filter in every spelling git accepts (comments after
 * a value, quotes, a line continuation in `include.path`, the old `[filter.x]` header, upper case,
 * `includeIf`): plain git runs it (the syntax is real), and reading the repository never does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { git, gitInit, workspace, write } from './helpers';
import { runIn } from './hostile-helpers';

/** `config` is appended to .git/config, `included` written to .git/inc.cfg; CLEAN stands for the filter command. */
interface Syntax {
  name: string;
  config: string;
  included?: string;
}

const FILTER = '[filter "evil"]\n\tclean = CLEAN\n';

const SYNTAXES: Syntax[] = [
  {
    name: 'include.path with a ; comment right after the value',
    config: '[include]\n\tpath = inc.cfg;not part of it\n',
    included: FILTER,
  },
  {
    name: 'include.path with a # comment right after the value',
    config: '[include]\n\tpath = inc.cfg#not part of it\n',
    included: FILTER,
  },
  { name: 'include.path in two quoted parts', config: '[include]\n\tpath = "inc"".cfg"\n', included: FILTER },
  { name: 'include.path quoted in the middle', config: '[include]\n\tpath = i"nc.c"fg\n', included: FILTER },
  { name: 'include.path with a line continuation', config: '[include]\n\tpath = inc\\\n.cfg\n', included: FILTER },
  {
    name: 'include.path with a quoted ; and a comment',
    config: '[include]\n\tpath = "inc.cfg" ; a comment\n',
    included: FILTER,
  },
  { name: 'include on the header line, key in upper case', config: '[INCLUDE] PATH=inc.cfg\n', included: FILTER },
  {
    name: 'includeIf with a condition that holds',
    config: '[includeIf "gitdir:/"]\n\tpath = inc.cfg\n',
    included: FILTER,
  },
  { name: 'old [filter.evil] header', config: '[filter.evil]\n\tclean = CLEAN\n' },
  { name: 'section name in upper case', config: '[FILTER "evil"]\n\tclean = CLEAN\n' },
  { name: 'key on the header line', config: '[filter "evil"] clean = CLEAN\n' },
  { name: 'filter name with a dot', config: '[filter "ev.il"]\n\tclean = CLEAN\n' },
  {
    name: 'nested include with a continuation inside the included file',
    config: '[include]\n\tpath = inc.cfg\n',
    included: '[include]\n\tpath = in\\\nc2.cfg\n',
  },
];

function repo(s: Syntax): { dir: string; mark: string } {
  const dir = workspace({ 'a.txt': 'hello\n' });
  gitInit(dir);
  const mark = path.join(dir, 'PWNED');
  const clean = write(dir, '.git/evil-clean.sh', `#!/bin/sh\ntouch '${mark}'\ncat\n`);
  chmodSync(clean, 0o755);
  writeFileSync(
    path.join(dir, '.gitattributes'),
    `*.txt filter=${s.name.startsWith('filter name with a dot') ? 'ev.il' : 'evil'}\n`,
  );
  const cfg = path.join(dir, '.git/config');
  writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}${s.config.replace('CLEAN', clean)}`);
  if (s.included !== undefined) write(dir, '.git/inc.cfg', s.included.replace('CLEAN', clean));
  if (s.name.startsWith('nested')) write(dir, '.git/inc2.cfg', FILTER.replace('CLEAN', clean));
  // A tracked file with a new mtime and the same size: git must look at its content (the clean filter).
  const a = path.join(dir, 'a.txt');
  writeFileSync(a, 'HELLO\n');
  utimesSync(a, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  return { dir, mark };
}

for (const s of SYNTAXES) {
  test(`git config syntax: ${s.name} — plain git runs the filter, reading the repository never does`, async () => {
    const { dir, mark } = repo(s);
    const info = await readGit(dir);
    await runIn(['status', '--root', dir]);
    assert.equal(existsSync(mark), false, 'the filter ran while Session Ledger read the repository');
    assert.ok(info, 'git facts were still read');
    assert.ok(info.changed.includes('a.txt'), `changed: ${info.changed.join(', ')}`);
    // Control: the syntax is real, git itself reads the filter from it.
    const t = path.join(dir, 'a.txt');
    utimesSync(t, new Date(Date.now() + 9000), new Date(Date.now() + 9000));
    rmSync(path.join(dir, '.git/index.lock'), { force: true });
    git(dir, 'status', '--porcelain');
    assert.ok(existsSync(mark), 'control: plain git status runs the filter this config defines');
  });
}
