// Every terminal shows its own session, told by process: two integrated terminals of one name
// (both bash), each running the real Claude Code (scripts/lib/claude-code.mjs) against the
// stand-in, with the SessionStart hook installed. Each session is given its own usage (12 % and
// 42 %); making a terminal active makes the status bar show its own session's figure, whichever
// session wrote last. A third terminal with no agent shows the newest session, said to be that.
// Run by scripts/e2e.mjs (phase "terminals").
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checklist, runCommand, showView, waitUntil, STATUS_ID } from './ui.mjs';
import { terminalText, typeInTerminal } from './claude.mjs';

/** The terminal tabs (VS Code lists them beside the terminal once there are two). */
const tabs = (page) => page.locator('.terminal-tabs-entry');

/** Make the i-th terminal (0-based, in the tabs' order) the active one, as a user clicks its tab. */
async function activate(page, i) {
  await tabs(page).nth(i).click();
  await waitUntil(
    `terminal ${i + 1} active`,
    async () => /\bselected\b|\bactive\b/.test((await tabs(page).nth(i).getAttribute('class')) ?? ''),
    10_000,
  ).catch(() => {});
}

async function newTerminal(page, count) {
  await runCommand(page, 'Terminal: Create New Terminal');
  await waitUntil(`${count} terminal(s)`, async () => (count < 2 ? true : (await tabs(page).count()) >= count), 30_000);
  await waitUntil("the shell's prompt", async () => /[#$]\s*$/m.test(await terminalText(page)), 60_000);
}

/** ctx: { page, ws, standin, test } as for test/e2e/claude.mjs. */
export async function terminalsTests({ page, ws, standin, test }) {
  const item = page.locator(`[id="${STATUS_ID}"]`);
  const records = join(ws, '.claude', 'session-ledger', 'sessions');
  const recorded = () =>
    existsSync(records)
      ? readdirSync(records)
          .filter((n) => n.endsWith('.json'))
          .map((n) => n.slice(0, -'.json'.length))
      : [];
  const figure = async () => (await item.innerText().catch(() => '')).trim();
  const label = async () => (await item.getAttribute('aria-label').catch(() => '')) ?? '';
  const sessions = [];

  await test('two terminals of one name each run the real Claude Code, each session with its own figure', async () => {
    for (const [i, tokens, pct] of [
      [0, 123_000, '12%'],
      [1, 423_000, '42%'],
    ]) {
      const before = new Set(recorded());
      await newTerminal(page, i + 1);
      await typeInTerminal(page, 'claude');
      const sid = await waitUntil(
        `the SessionStart record of terminal ${i + 1}'s session`,
        () => recorded().find((x) => !before.has(x)),
        90_000,
      );
      await waitUntil("the client's screen", async () => /claude code/i.test(await terminalText(page)), 60_000);
      standin.setUsage({ cache_read_input_tokens: tokens });
      await typeInTerminal(page, `hello from terminal ${i + 1}`);
      await waitUntil(
        `the first request of ${sid}`,
        () => standin.messages(sid).some((q) => q.kind === 'chat'),
        90_000,
      );
      await waitUntil(`${pct} in the status bar`, async () => (await figure()).includes(pct), 60_000);
      sessions.push({ sid, pct });
    }
    standin.setUsage(null);
    assert.notEqual(sessions[0].sid, sessions[1].sid);
    const names = (await tabs(page).allInnerTexts()).map((t) => t.trim());
    assert.equal(names.length, 2, JSON.stringify(names));
    assert.equal(names[0], names[1], `both terminals carry one name: ${JSON.stringify(names)}`);
  });
  if (sessions.length < 2) return;

  await test("making a terminal active makes the status bar show that terminal's own session", async () => {
    // Terminal 2's session wrote last: terminal 1 showing 12 % is told by process, not by recency or name.
    for (const i of [0, 1, 0]) {
      await activate(page, i);
      const { sid, pct } = sessions[i];
      await waitUntil(
        `terminal ${i + 1}: ${pct} and its session in the label`,
        async () => (await figure()).includes(pct) && (await label()).includes(sid.slice(0, 8)),
        30_000,
      );
      assert.match(await label(), /running in the active terminal/);
    }
  });

  await test('the checklist names the client and session its ticks and marker are for', async () => {
    // Terminal 1 is the active terminal (the editor takes the focus, the active terminal stays).
    await runCommand(page, 'Session Ledger: Open checklist');
    const line = checklist(page).locator('#session');
    await line.waitFor({ state: 'visible', timeout: 30_000 });
    await waitUntil(
      "terminal 1's session named in the checklist",
      async () => {
        const text = await line.innerText();
        return text.includes(`Claude Code session ${sessions[0].sid.slice(0, 8)}`) && /active terminal/.test(text);
      },
      30_000,
    );
  });

  await test('the Session Ledger view names the client and session its ticks are for, above the tree', async () => {
    await showView(page);
    await waitUntil(
      "terminal 1's session above the tree",
      async () =>
        (
          await page
            .locator('.part.sidebar')
            .innerText()
            .catch(() => '')
        ).includes(`Claude Code session ${sessions[0].sid.slice(0, 8)}`),
      30_000,
    );
  });

  await test('a terminal with no agent shows the newest session of the workspace, said so', async () => {
    await newTerminal(page, 3);
    await waitUntil(
      'the newest session, said to be that',
      async () => (await label()).includes('Newest session in this workspace'),
      30_000,
    );
    assert.ok((await figure()).includes(sessions[1].pct), await figure());
    assert.ok((await label()).includes(sessions[1].sid.slice(0, 8)), await label());
  });
}
