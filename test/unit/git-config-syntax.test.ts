/**
 * A repository's `.git/config` defines a clean filter in every spelling git accepts (comments after
 * a value, quotes, a line continuation in `include.path`, the old `[filter.x]` header, upper case,
 * `includeIf`), or includes it by every path form git expands (`~/`, `~user/`, `%(prefix)/`, `..`
 * behind a symbolic link): plain git runs it (the syntax is real), and reading the repository never
 * does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readGit } from '../../src/core/git/git';
import { git, gitInit, workspace, write } from './helpers';
import { runIn } from './hostile-helpers';

/**
 * `config` is appended to .git/config (INC stands for the absolute path of the included file), `included`
 * written to `includedAt` (.git/inc.cfg unless said); CLEAN stands for the filter command.
 */
interface Syntax {
  name: string;
  config: string;
  included?: string;
  includedAt?: string;
  /** Run on the repository before the config is written. */
  setup?: (dir: string) => void;
}

/** Where git's `%(prefix)/` leads, as git itself expands it. */
const PREFIX = execFileSync('git', ['-c', 'x.y=%(prefix)/', 'config', '--type=path', '--get', 'x.y'], {
  encoding: 'utf8',
}).trim();
const USER = os.userInfo();

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
    name: 'include.path through a symbolic link and .. (the file system resolves .. behind the link)',
    config: '[include]\n\tpath = lnk/../inc.cfg\n',
    included: FILTER,
    includedAt: '.git/deep/inc.cfg',
    setup: (dir) => {
      mkdirSync(path.join(dir, '.git/deep/er'), { recursive: true });
      symlinkSync(path.join(dir, '.git/deep/er'), path.join(dir, '.git/lnk'));
    },
  },
  { name: 'include.path from ~/', config: `[include]\n\tpath = ~/HOME_REL\n`, included: FILTER },
  {
    name: `include.path from ~${USER.username}/`,
    config: `[include]\n\tpath = ~${USER.username}/USER_REL\n`,
    included: FILTER,
  },
  { name: 'include.path from %(prefix)/', config: '[include]\n\tpath = %(prefix)/PREFIX_REL\n', included: FILTER },
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
  s.setup?.(dir);
  const cfg = path.join(dir, '.git/config');
  const inc = path.join(dir, s.includedAt ?? '.git/inc.cfg');
  const config = s.config
    .replace('CLEAN', clean)
    .replace('HOME_REL', path.relative(os.homedir(), inc))
    .replace('USER_REL', path.relative(USER.homedir, inc))
    .replace('PREFIX_REL', path.relative(PREFIX, inc));
  writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}${config}`);
  if (s.included !== undefined) write(dir, s.includedAt ?? '.git/inc.cfg', s.included.replace('CLEAN', clean));
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
