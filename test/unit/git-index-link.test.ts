/**
 * A repository's index that is a link to a file the kernel makes as it is read (`/proc/self/pagemap` says
 * 0 bytes and holds hundreds of gigabytes): whether git tracks a lock file is then not known, and every
 * reader stops one byte past its limit. A dry run that asks it (a lock file beside `.claude/settings.json`)
 * ends at once, as does the real run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readRegularFile } from '../../src/core/files/fsread';
import { gitTracks } from '../../src/core/git/tracked';
import { CLI, gitInit, workspace } from './helpers';

const PAGEMAP = '/proc/self/pagemap';

test('a file is read whole within the limit, and refused past it', async () => {
  const dir = workspace({ 'a.txt': 'abc' });
  assert.equal((await readRegularFile(path.join(dir, 'a.txt'), 3))?.toString(), 'abc');
  assert.equal(await readRegularFile(path.join(dir, 'a.txt'), 2), null);
});

test(
  '`.git/index` a link to /proc/self/pagemap: hooks install --dry-run ends at once, gitTracks says "not known"',
  { skip: !existsSync(PAGEMAP) },
  async () => {
    const dir = workspace({ 'README.md': '# x\n', '.claude/.settings.json.session-ledger.lock': '' });
    gitInit(dir);
    renameSync(path.join(dir, '.git/index'), path.join(dir, '.git/index.real'));
    symlinkSync(PAGEMAP, path.join(dir, '.git/index'));
    writeFileSync(path.join(dir, '.claude/settings.json'), '{}\n');
    // In a process of its own first: a read that does not stop would hang this one.
    const r = spawnSync(process.execPath, [CLI, 'hooks', 'install', '--dry-run', '--root', dir], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.error, undefined, 'the dry run did not end within 20 s');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Would add hooks.PreCompact/);
    const t = process.cpuUsage();
    assert.equal(await gitTracks(path.join(dir, '.claude/.settings.json.session-ledger.lock')), null);
    assert.equal(await readRegularFile(PAGEMAP, 1024 * 1024), null);
    const cpu = process.cpuUsage(t);
    assert.ok((cpu.user + cpu.system) / 1000 < 5_000, `${(cpu.user + cpu.system) / 1000} ms`);
  },
);
