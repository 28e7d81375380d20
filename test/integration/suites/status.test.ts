import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID, getApi, waitFor, workspaceRoot } from '../helpers';

type Api = Awaited<ReturnType<typeof getApi>>;

/** Run `fn` with the workspace's Claude Code project settings files (none in the fixture), removed after it. */
async function withProjectSettings(fn: (api: Api, shared: string, local: string) => Promise<void>): Promise<void> {
  const api = await getApi();
  const root = workspaceRoot();
  const shared = join(root, '.claude', 'settings.json');
  const local = join(root, '.claude', 'settings.local.json');
  assert.ok(!existsSync(shared) && !existsSync(local), 'the fixture has no Claude Code project settings');
  mkdirSync(join(root, '.claude'), { recursive: true });
  try {
    await fn(api, shared, local);
  } finally {
    rmSync(shared, { force: true });
    rmSync(local, { force: true });
    await api.refresh();
  }
}

describe('context status bar', () => {
  it("shows the fixture session's usage from its transcript (10 %, below the S3 proposal at 15 %)", async () => {
    const api = await getApi();
    const sb = await waitFor('the status bar item', () => api.statusBar());
    assert.equal(sb.text, '$(pulse) 10%');
    assert.ok(!sb.background, `no background below the first threshold (got ${sb.background})`);
    assert.match(
      sb.label,
      /^Session Ledger: context 10 percent, under the checkpoint mark for S3 \(15 percent\)\./,
      'the spoken label says the figure and the mark',
    );
    assert.ok(sb.tooltip.includes(SESSION_ID.slice(0, 8)), `the tooltip names the session (${sb.tooltip})`);
  });

  it('says when the status line relay in .claude/settings.json does not run because .claude/settings.local.json sets a status line of its own, and what to do; not once that status line is gone', async () => {
    const hidden =
      /statusLine: the relay in `\.claude\/settings\.json` does not run in this project: `\.claude\/settings\.local\.json` sets a status line of its own/;
    await withProjectSettings(async (api, shared, local) => {
      // The relay as `hooks install --statusline` writes it.
      const relay = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger-statusline.cjs" statusline';
      writeFileSync(shared, `${JSON.stringify({ statusLine: { type: 'command', command: relay } }, null, 2)}\n`);
      writeFileSync(local, '{ "statusLine": { "type": "command", "command": "echo MINE" } }\n');
      await api.refresh();
      const sb = await waitFor('the tooltip to say the relay does not run', () => {
        const s = api.statusBar();
        return s && hidden.test(s.tooltip) ? s : undefined;
      });
      assert.match(
        sb.tooltip,
        /"Install guard hooks" with \.claude\/settings\.local\.json and the status line relay wraps that status line instead, or remove the statusLine from `\.claude\/settings\.local\.json`\./,
      );
      writeFileSync(local, '{}\n');
      await api.refresh();
      await waitFor('the tooltip without it', () => {
        const s = api.statusBar();
        return s && !hidden.test(s.tooltip) && /Source:/.test(s.tooltip);
      });
    });
  });
  it("says /compact is not guarded, with the file and the setting, while Claude Code's disableAllHooks keeps the installed guard from running; the guard's verdict once it is false", async () => {
    const off =
      /\$\(unlock\) \/compact is not guarded: disableAllHooks is true in `\.claude\/settings\.local\.json`, so Claude Code runs no hooks; remove it to let the guard run\./;
    await withProjectSettings(async (api, shared, local) => {
      // The guard as `hooks install` writes it.
      const hook = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs" hook pre-compact';
      const group = { matcher: 'manual', hooks: [{ type: 'command', command: hook, timeout: 30 }] };
      writeFileSync(shared, `${JSON.stringify({ hooks: { PreCompact: [group] } }, null, 2)}\n`);
      writeFileSync(local, '{ "disableAllHooks": true }\n');
      await api.refresh();
      const sb = await waitFor('the tooltip to say the guard does not run', () => {
        const s = api.statusBar();
        return s && off.test(s.tooltip) ? s : undefined;
      });
      assert.match(sb.label, /\/compact is not guarded: disableAllHooks is true in \.claude\/settings\.local\.json/);
      assert.doesNotMatch(sb.tooltip, /would be stopped by the guard|would pass the guard/);
      writeFileSync(local, '{ "disableAllHooks": false }\n');
      await api.refresh();
      await waitFor("the guard's own verdict", () => {
        const s = api.statusBar();
        return s && !off.test(s.tooltip) && /\/compact would (be stopped by|pass) the guard/.test(s.tooltip);
      });
    });
  });
});
