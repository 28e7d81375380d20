/** The CLI's argument parsing: the plain shapes parsed without node:util's parser give what it gives. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parse, plainArgs } from '../../src/cli/args';
import { UsageError } from '../../src/cli/io';
import { rng } from './helpers';

const OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  root: { type: 'string' },
  json: { type: 'boolean' },
  confirm: { type: 'string', multiple: true },
  agent: { type: 'string', default: 'claude' },
  help: { type: 'boolean', short: 'h' },
};
const WORDS = [
  '--root',
  '--json',
  '--confirm',
  '--agent',
  '--help',
  '-h',
  '--',
  '-',
  '--nope',
  '--root=x',
  '--json=1',
  '--confirm=a,b',
  'dir',
  '-x',
  '--agent=codex',
  '',
  'a b',
  '--Root',
  '-root',
];

const outcome = (f: () => unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(f())) as unknown };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

test('plainArgs answers exactly what parseArgs (strict) answers, or leaves the arguments to it', () => {
  const next = rng(20261203);
  let answered = 0;
  for (let n = 0; n < 4000; n++) {
    const args = Array.from({ length: Math.floor(next() * 6) }, () => WORDS[Math.floor(next() * WORDS.length)]);
    for (const allowPositionals of [false, true]) {
      const quick = plainArgs(args, OPTIONS, allowPositionals);
      if (!quick) continue;
      answered++;
      const want = outcome(() => parseArgs({ args, options: OPTIONS, allowPositionals, strict: true }));
      assert.deepEqual(
        { ok: JSON.parse(JSON.stringify(quick)) as unknown },
        want,
        JSON.stringify({ args, allowPositionals }),
      );
      assert.equal(Object.getPrototypeOf(quick.values), null, 'values without a prototype, as parseArgs gives');
    }
  }
  assert.ok(answered > 1000, `${answered} answered`);
  // The shapes the hooks, the status line and `context` use are answered without node:util's parser.
  assert.deepEqual(
    { ...plainArgs(['--json', '--root', '/w'], OPTIONS, false)?.values },
    {
      json: true,
      root: '/w',
      agent: 'claude',
    },
  );
  assert.deepEqual({ ...plainArgs([], OPTIONS, false)?.values }, { agent: 'claude' });
});

test('what plainArgs leaves to parseArgs still fails with its usage error', () => {
  for (const args of [['--nope'], ['--root'], ['--json=1'], ['x'], ['--root', '--json']])
    assert.throws(() => parse(args, OPTIONS), UsageError, JSON.stringify(args));
  assert.deepEqual({ ...parse(['-h'], OPTIONS).values }, { help: true, agent: 'claude' });
});
