import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, workspace, write } from './helpers';

test('bad usage and an unreadable root exit 2 with one line, no stack trace', () => {
  for (const args of [['status', '--root', '/definitely/not/here'], ['check', '--bogus'], ['frobnicate'], []]) {
    const r = cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}${r.stdout}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  const dir = workspace();
  const file = write(dir, 'f.txt', 'x');
  assert.equal(cli(['check', '--root', file]).code, 2);
});

test('an empty workspace: nothing detected, exit 0', () => {
  const dir = workspace();
  const r = cli(['status', '--root', dir, '--json']);
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.stdout).systems, []);
  assert.equal(cli(['check', '--root', dir]).code, 0);
});
