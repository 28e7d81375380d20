/** rotate-log killed between its renames: the re-run neither duplicates entries nor leaves temp files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { workspace } from './helpers';
import { runIn } from './hostile-helpers';

const HANDOFF = `# STATE: live project state

## Handoff: read this first

- **Status:** building
- **Branch / HEAD:** main
- **Now ▶** wire the Stop hook into settings.json per the plan in the newest log entry
- **Blocked on:** nothing

## Log
`;

const entry = (date: string, title: string, n: number) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: n }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
const E = [
  entry('2026-08-03', 'stop hook', 40),
  entry('2026-08-01', 'checkpoint skill', 40),
  entry('2026-07-20', 'agent file cap', 40),
  entry('2026-07-02', 'budgets', 40),
  entry('2026-06-30', 'begin', 5),
];

test('a kill after the archives were renamed and before STATE.md was: the re-run moves each entry once and removes the stale temp file', async () => {
  const dir = workspace({
    'docs/state/STATE.md': HANDOFF + E.join(''),
    'docs/state/log/2026-07.md': '# Log 2026-07\n\n### 2026-07-01 - older\n\n- was here before\n',
  });
  const plan = await planRotateLog(dir);
  assert.ok(plan && plan.moves.length >= 2);
  // The real crash: a separate process runs the move and is SIGKILLed right before STATE.md's rename.
  const mod = path.resolve(__dirname, '../../src/core/systems/s3/rotate-log.js');
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(mod)}).applyRotateLog(${JSON.stringify(dir)}, ${JSON.stringify(plan.hash)}, { beforeStateRename: () => process.kill(process.pid, 'SIGKILL') })`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(child.signal, 'SIGKILL', child.stderr);
  const logDir = path.join(dir, 'docs/state/log');
  const june = readFileSync(path.join(logDir, '2026-06.md'), 'utf8');
  assert.match(june, /2026-06-30 - begin/, 'the archives were written before the kill');
  assert.equal(
    readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8'),
    HANDOFF + E.join(''),
    'STATE.md still holds the entries',
  );
  assert.ok(
    readdirSync(path.join(dir, 'docs/state')).some((n) => /^\.STATE\.md\.\d+\.[0-9a-f]{8}\.tmp$/.test(n)),
    'the killed run left its temp file',
  );

  const again = await runIn(['rotate-log', '--root', dir, '--apply']);
  assert.equal(again.code, 0, again.stderr);
  const count = (text: string, needle: string) => text.split(needle).length - 1;
  for (const f of ['2026-06.md', '2026-07.md']) {
    const text = readFileSync(path.join(logDir, f), 'utf8');
    for (const m of plan.moves.filter((x) => x.dest.endsWith(f)))
      assert.equal(count(text, `### ${m.date} `), 1, `${m.date} is archived once in ${f}`);
  }
  assert.equal(count(readFileSync(path.join(logDir, '2026-07.md'), 'utf8'), '2026-07-01 - older'), 1);
  const state = readFileSync(path.join(dir, 'docs/state/STATE.md'), 'utf8');
  for (const m of plan.moves) assert.doesNotMatch(state, new RegExp(`### ${m.date} - `), `${m.date} left STATE.md`);
  assert.deepEqual(
    readdirSync(path.join(dir, 'docs/state')).filter((n) => n.endsWith('.tmp')),
    [],
    'no stale temp file is left',
  );
  // And once more: nothing left to do, nothing duplicated.
  const third = await runIn(['rotate-log', '--root', dir, '--apply']);
  assert.equal(third.code, 0);
  assert.equal(count(readFileSync(path.join(logDir, '2026-06.md'), 'utf8'), '2026-06-30 - begin'), 1);
});
