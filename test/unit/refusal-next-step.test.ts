/**
 * A write refused because its file changed between the read and the write says one next step on each
 * surface: the command line prints "Run it again." (what the user does next is run the command once
 * more), whichever write action it came from and whether the write itself (writeAtomic) or the action
 * found the change; the extension words the same refusal from its reason, "Try again.", in English,
 * Japanese and Korean. Real files in temp folders, through the real actions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic, WriteRefused } from '../../src/core/files/atomic';
import { sha256 } from '../../src/core/files/fsread';
import { applyHooksPlan, planHooksInstall } from '../../src/core/hooks/install';
import { applyEnableLedger, planEnableLedger } from '../../src/core/systems/s0/enable';
import { applyAttest, planAttest } from '../../src/core/systems/s1/attest';
import { applyRotateLog, planRotateLog } from '../../src/core/systems/s3/rotate-log';
import { errorText } from '../../src/extension/pure/error-text';
import { enT, HOOK_SCRIPT, jaT, koT, refusal, workspace } from './helpers';

const entry = (date: string, title: string) =>
  `\n### ${date} - ${title}\n\n${Array.from({ length: 60 }, (_, i) => `- ${title}: step ${i + 1}`).join('\n')}\n`;
const S3_STATE =
  '# STATE: live project state\n\n## Handoff: read this first\n\n- **Now ▶** wire the Stop hook\n\n## Log\n' +
  [entry('2026-08-03', 'stop hook'), entry('2026-08-01', 'checkpoint skill'), entry('2026-07-20', 'budgets')].join('');
const HANDOFF = '# Session Handoff\n\n## What to do now (priority order)\n1. trim MEMORY.md\n';

/** Each write action's refusal of a file changed since it was read: [what, the file, the refusal]. */
async function changedRefusals(): Promise<Array<[string, string, WriteRefused]>> {
  const out: Array<[string, string, WriteRefused]> = [];
  const take = async (what: string, file: string, p: Promise<unknown>) => {
    const err = await refusal(p);
    assert.ok(err instanceof WriteRefused && err.reason === 'changed', `${what}: ${String(err)}`);
    out.push([what, file, err]);
  };

  // enable-ledger: .agents.yml edited while the preview was open (the write finds it).
  const s0 = workspace({ '.agents.yml': 'session:\n  ledger: false\n' });
  const p = await planEnableLedger(s0);
  assert.ok(p.ok);
  writeFileSync(path.join(s0, '.agents.yml'), 'session:\n  ledger: false\nother: 1\n');
  await take('enable-ledger', '.agents.yml', applyEnableLedger(s0, p.plan));

  // rotate-log: STATE.md written by the agent between the read and the rename (the write finds it).
  const s3 = workspace({ 'docs/state/STATE.md': S3_STATE });
  const plan = await planRotateLog(s3, { budget: 100 });
  assert.ok(plan?.changed);
  await take(
    'rotate-log',
    'docs/state/STATE.md',
    applyRotateLog(s3, plan.hash, {
      budget: 100,
      beforeStateRename: () => writeFileSync(path.join(s3, 'docs/state/STATE.md'), `${S3_STATE}- the agent\n`),
    }),
  );

  // attest: the handoff changed while it was attested (the action finds it).
  const s1 = workspace({ 'memory/session-handoff-LATEST.md': HANDOFF });
  const a = await planAttest(s1);
  assert.ok(a);
  writeFileSync(path.join(s1, 'memory/session-handoff-LATEST.md'), `${HANDOFF}2. and one more\n`);
  await take('attest', 'memory/session-handoff-LATEST.md', applyAttest(a));

  // hooks install: the settings edited while the preview was open (the action finds it).
  const h = workspace({ '.claude/settings.json': '{"model": "opus"}\n' });
  const hp = await planHooksInstall(h, { cliBundle: HOOK_SCRIPT });
  writeFileSync(path.join(h, '.claude/settings.json'), '{"model": "sonnet"}\n');
  await take('hooks install', '.claude/settings.json', applyHooksPlan(hp));

  // Any other write with an expected hash (checkpoint's marker, compact-state's state): a second writer before the rename.
  const w = workspace({ '.agents/STATE.md': 'v1' });
  const file = path.join(w, '.agents/STATE.md');
  await take(
    'a write with an expected hash',
    '.agents/STATE.md',
    writeAtomic(file, 'v2', {
      root: w,
      expectHash: sha256(Buffer.from('v1')),
      beforeRename: () => writeFileSync(file, 'the agent'),
    }),
  );
  return out;
}

test('a file changed since it was read: every write action says the command line\'s next step, "Run it again."', async () => {
  for (const [what, file, err] of await changedRefusals()) {
    const said =
      what === 'attest'
        ? `${file} changed while it was being attested; nothing was written. Run it again.`
        : `${file} changed since it was read; nothing was written. Run it again.`;
    assert.equal(err.message, said, what);
  }
});

test('the same refusals in the extension: its own next step, "Try again.", in English, Japanese and Korean', async () => {
  for (const [what, file, err] of await changedRefusals()) {
    assert.equal(errorText(enT, err), `${file} changed since it was read; nothing was written. Try again.`, what);
    assert.equal(
      errorText(jaT, err),
      `${file} は読み取り後に変更されました。何も書き込んでいません。もう一度お試しください。`,
      what,
    );
    assert.equal(
      errorText(koT, err),
      `${file}이(가) 읽은 뒤에 바뀌었습니다. 아무것도 쓰지 않았습니다. 다시 시도하세요.`,
      what,
    );
  }
});
