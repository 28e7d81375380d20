import * as assert from 'node:assert/strict';
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { TRANSCRIPT, flatten, getApi, sleep, waitFor, workspaceRoot, type TreeNode } from '../helpers';

const MODEL = 'claude-sonnet-4-5-20250929';

/** One main-chain assistant record whose usage is `percent` of a 200k window (Claude Code's shape). */
function assistantLine(percent: number): string {
  const used = Math.round(2000 * percent);
  const sessionId = JSON.parse(readFileSync(TRANSCRIPT, 'utf8').trim().split('\n').pop()!).sessionId;
  return (
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: workspaceRoot(),
      sessionId,
      version: '2.0.14',
      gitBranch: 'main',
      message: {
        model: MODEL,
        id: `msg_itest_${percent}`,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 990,
          cache_read_input_tokens: used - 1000,
          output_tokens: 50,
        },
      },
      type: 'assistant',
      uuid: `it-${percent}-${Date.now()}`,
      timestamp: new Date().toISOString(),
    }) + '\n'
  );
}

describe('watching the disk', () => {
  it('an edit of a ledger on disk shows in the tree', async () => {
    const api = await getApi();
    const file = join(workspaceRoot(), '.claude', 'session-ledger.md');
    const text = readFileSync(file, 'utf8');
    const next = 'Write the renewal migration in migrations/004_renewed.sql and run `npm test`.';
    writeFileSync(file, text.replace(/## NEXT\n.*\n/, `## NEXT\n${next}\n`));
    await waitFor('the new NEXT item in the tree', async () => {
      const roots = (await api.treeSnapshot()) as TreeNode[];
      const s2 = roots.find((r) => r.label.startsWith('S2 '));
      return s2 && flatten(s2.children).some((i) => i.label.startsWith('Write the renewal migration'));
    });
    assert.equal(api.report()!.systems.find((s) => s.id === 'S2')!.next, next);
  });

  it('usage appended to the transcript moves the status bar past the thresholds (S3: 15 % and 40 %)', async () => {
    assert.ok(TRANSCRIPT, 'the fixture transcript is known');
    const api = await getApi();
    appendFileSync(TRANSCRIPT, assistantLine(30));
    const warn = await waitFor('30 % in the status bar', () =>
      api.statusBar()?.text === '$(warning) 30%' ? api.statusBar() : undefined,
    );
    assert.equal(warn.background, 'statusBarItem.warningBackground');
    appendFileSync(TRANSCRIPT, assistantLine(45));
    const err = await waitFor('45 % in the status bar', () =>
      api.statusBar()?.text === '$(error) 45%' ? api.statusBar() : undefined,
    );
    assert.equal(err.background, 'statusBarItem.errorBackground');
  });

  it('a state file written in pieces is never shown half-written, and one that stays unreadable becomes a finding', async function () {
    this.timeout(90_000);
    const api = await getApi();
    const rel = 'docs/state/STATE.md';
    const file = join(workspaceRoot(), ...rel.split('/'));
    const whole = readFileSync(file, 'utf8');
    // The first piece ends before `## Handoff`: on its own it is not an S3 state file.
    const cut = whole.indexOf('## Handoff');
    assert.ok(cut > 0, 'the fixture has a Handoff block');
    const s3Shown = () => {
      const r = api.report();
      const s3 = r?.systems.find((s) => s.id === 'S3');
      const notRead = (r?.notRead ?? []).some((n) => n.path === rel);
      const unreadable = (s3?.checks ?? []).some((c) => c.id === 'readable' || c.id === 'parse');
      const problem = api
        .diagnostics()
        .some((d) => d.path.endsWith(rel) && /not read as S3|Cannot read the document/.test(d.message));
      return { present: !!s3 && !notRead && !unreadable && !problem, s3, notRead, problem };
    };
    await waitFor('S3 in the report', () => s3Shown().present);
    const bad: string[] = [];
    let sampling = true;
    let samples = 0;
    const sampler = (async () => {
      while (sampling) {
        const s = s3Shown();
        samples++;
        if (!s.present)
          bad.push(
            `S3 ${s.s3 ? 'with a finding of an unreadable file' : 'gone'}${s.notRead ? ', "not read as S3"' : ''}${s.problem ? ', in Problems' : ''}`,
          );
        await sleep(20);
      }
    })();
    try {
      // An agent rewriting the file in place: truncate, write the head, pause (longer than any quiet
      // period a re-read waits for), write the rest. Five times.
      for (let i = 0; i < 5; i++) {
        const fd = openSync(file, 'w');
        try {
          writeSync(fd, whole.slice(0, cut));
          fsyncSync(fd);
          await sleep(400);
          writeSync(fd, whole.slice(cut));
        } finally {
          closeSync(fd);
        }
        await sleep(300);
      }
      await sleep(1500);
    } finally {
      sampling = false;
      await sampler;
    }
    assert.ok(samples > 50, `the report was sampled (${samples} samples)`);
    assert.deepEqual(bad.slice(0, 3), [], `${bad.length} of ${samples} samples showed the half-written file`);
    // The last good state was shown while the file changed; now the file is whole again and no longer marked as updating.
    await waitFor('S3 read again, not updating', () => s3Shown().present && !s3Shown().s3?.updating);
    // A file that stays half-written is not hidden: it becomes a finding once it stopped changing.
    writeFileSync(file, whole.slice(0, cut));
    try {
      await waitFor('the half-written file reported as not read', () => s3Shown().notRead, 10_000, 50);
    } finally {
      writeFileSync(file, whole);
    }
    await waitFor('S3 back', () => s3Shown().present && !s3Shown().s3?.updating);
  });

  it('a work file created while the agent rewrites its state file counts once the writes stop (git is run again)', async function () {
    this.timeout(60_000);
    const api = await getApi();
    const file = join(workspaceRoot(), 'docs', 'state', 'STATE.md');
    const whole = readFileSync(file, 'utf8');
    const work = join(workspaceRoot(), 'aa-busy-work.txt');
    const explained = () =>
      api
        .report()
        ?.systems.find((s) => s.id === 'S3')
        ?.checks.find((c) => c.id === 'work-explained')?.message ?? '';
    /** The uncommitted changes S3's work-explained counts ("No uncommitted changes.": 0). */
    const changes = () =>
      Number(/(\d+) uncommitted change/.exec(explained())?.[1] ?? (/No uncommitted/.test(explained()) ? 0 : NaN));
    const { before } = await waitFor('S3 work-explained counted', () =>
      Number.isNaN(changes()) ? undefined : { before: changes() },
    );
    try {
      // Re-reads after state-only changes take git's status from an earlier run (up to 3 s old): the
      // file created after the burst's first re-read (at the latest 0.7 s after its first write) is
      // in none of the burst's re-reads; only the read once the writes stopped runs git again.
      for (let k = 0; k < 16; k++) {
        writeFileSync(file, `${whole}\n<!-- write ${k} -->\n`);
        if (k === 11) writeFileSync(work, 'half done\n');
        await sleep(100);
      }
      await waitFor('S3 work-explained counts the new work file', () => changes() === before + 1, 10_000).catch((e) => {
        throw new Error(`${(e as Error).message}; S3 work-explained says: ${explained()} (before: ${before})`);
      });
    } finally {
      writeFileSync(file, whole);
      rmSync(work, { force: true });
    }
    await waitFor('the work file no longer counted', () => changes() === before);
  });
});
