import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRANSCRIPT, flatten, getApi, waitFor, workspaceRoot, type TreeNode } from '../helpers';

const MODEL = 'claude-sonnet-4-5-20250929';

/** One main-chain assistant record whose usage is `percent` of a 200k window (Claude Code's shape). */
function assistantLine(percent: number): string {
  const used = Math.round(2000 * percent);
  const sessionId = JSON.parse(readFileSync(TRANSCRIPT, 'utf8').trim().split('\n').pop()!).sessionId;
  return JSON.stringify({
    parentUuid: null, isSidechain: false, userType: 'external', cwd: workspaceRoot(), sessionId, version: '2.0.14', gitBranch: 'main',
    message: {
      model: MODEL, id: `msg_itest_${percent}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 10, cache_creation_input_tokens: 990, cache_read_input_tokens: used - 1000, output_tokens: 50 },
    },
    type: 'assistant', uuid: `it-${percent}-${Date.now()}`, timestamp: new Date().toISOString(),
  }) + '\n';
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
    const warn = await waitFor('30 % in the status bar', () => (api.statusBar()?.text === '$(pulse) 30%' ? api.statusBar() : undefined));
    assert.equal(warn.background, 'statusBarItem.warningBackground');
    appendFileSync(TRANSCRIPT, assistantLine(45));
    const err = await waitFor('45 % in the status bar', () => (api.statusBar()?.text === '$(pulse) 45%' ? api.statusBar() : undefined));
    assert.equal(err.background, 'statusBarItem.errorBackground');
  });
});
