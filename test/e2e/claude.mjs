// The extension fed by a real Claude Code session: the real client (scripts/lib/claude-code.mjs)
// runs in VS Code's integrated terminal against the stand-in of the model API, with the same
// CLAUDE_CONFIG_DIR as the extension. Run by scripts/e2e.mjs (phase "claude").
//   1. `claude` started in the terminal: the status bar follows the session's figure as the stand-in
//      reports more usage (the statusLine relay's record and the transcript, whichever is newer);
//   2. "Ask the agent to checkpoint" types the system's trigger into that terminal, into the
//      client's own input: Enter then sends exactly that text to the model.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, waitUntil, STATUS_ID } from './ui.mjs';

/** The shown terminal (xterm's root is `.terminal.xterm`; a terminal in another tab is not shown). */
const shownTerminal = (page) => page.locator('.xterm').filter({ visible: true }).first();

/** The shown integrated terminal's text (DOM renderer: `terminal.integrated.gpuAcceleration` off). */
export async function terminalText(page) {
  return (
    await shownTerminal(page)
      .locator('.xterm-rows')
      .allInnerTexts()
      .catch(() => [])
  ).join('\n');
}

const squash = (t) => t.replace(/\s+/g, '');
const occurrences = (hay, needle) => hay.split(needle).length - 1;

/**
 * Type into the terminal as a user does: focus its input (xterm's helper textarea), type, see the
 * text echoed once more than before (the shell's line or the client's input box), then Enter.
 * Keys typed before the terminal has focus go nowhere: then again.
 */
export async function typeInTerminal(page, text, { enter = true } = {}) {
  const want = squash(text);
  for (let attempt = 1; ; attempt++) {
    const before = occurrences(squash(await terminalText(page)), want);
    await runCommand(page, 'Terminal: Focus Terminal');
    const input = shownTerminal(page).locator('.xterm-helper-textarea');
    await input.focus();
    await waitUntil(
      'the terminal to have the keyboard focus',
      () => page.evaluate(() => !!document.activeElement?.classList.contains('xterm-helper-textarea')),
      10_000,
    );
    await page.keyboard.type(text, { delay: 20 });
    try {
      await waitUntil(
        `"${text}" echoed in the terminal`,
        async () => occurrences(squash(await terminalText(page)), want) > before,
        10_000,
      );
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      // Whatever part of it arrived goes: Ctrl+U clears the shell's line and the client's input.
      await page.keyboard.press('Control+U');
    }
  }
  if (enter) {
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
  }
}

/**
 * ctx: { page, ws, standin, test } — `standin` is the running stand-in (its requests are the
 * client's), `ws` the workspace with the hooks and the statusLine relay installed.
 */
export async function claudeTests({ page, ws, standin, test }) {
  const item = page.locator(`[id="${STATUS_ID}"]`);
  const sessionFile = join(ws, '.claude', 'session-ledger', 'session.json');
  let sid;

  await test('the real Claude Code runs in the integrated terminal; its SessionStart hook records the session', async () => {
    await runCommand(page, 'Terminal: Create New Terminal');
    await page.locator('.xterm').first().waitFor({ state: 'visible', timeout: 30_000 });
    await waitUntil("the shell's prompt", async () => /[#$]\s*$/m.test(await terminalText(page)), 60_000);
    standin.setUsage({ cache_read_input_tokens: 123_000 });
    const recorded = () => {
      try {
        const rec = JSON.parse(readFileSync(sessionFile, 'utf8'));
        return rec.source === 'startup' && rec.session_id;
      } catch {
        return null;
      }
    };
    const clientRuns = () =>
      spawnSync('pgrep', ['-f', '(^|/)claude( |$)|claude\\.exe'], { encoding: 'utf8' }).stdout.trim() !== '';
    await typeInTerminal(page, 'claude');
    // Seen twice in a row on one machine, never alone: the client was started (the shell's history has
    // it) and was gone again before its SessionStart hooks, leaving a bare prompt and no word on screen.
    // Say what the screen and the process table show, then start it once more, as its user would.
    sid = await waitUntil('the SessionStart record of the new session', recorded, 45_000).catch(async () => {
      console.log(
        `      (no SessionStart record after 45 s; client process running: ${clientRuns()}; terminal: ${JSON.stringify((await terminalText(page)).slice(-300))})`,
      );
      if (clientRuns()) return null;
      await typeInTerminal(page, 'claude');
      return null;
    });
    sid ??= await waitUntil('the SessionStart record of the new session', recorded, 60_000);
    await waitUntil(
      "the client's screen in the terminal",
      async () => /claude code/i.test(await terminalText(page)),
      60_000,
    );
  });
  if (!sid) return;

  await test('the status bar follows the real session: 12 % after the first turn, then 42 % with the urgent colour', async () => {
    await typeInTerminal(page, 'hello from VS Code');
    await waitUntil(
      'the first request of the session',
      () => standin.messages(sid).some((q) => q.kind === 'chat'),
      90_000,
    );
    await waitUntil(
      '12% in the status bar',
      async () => (await item.innerText().catch(() => '')).includes('12%'),
      60_000,
    );
    const feed = join(ws, '.claude', 'session-ledger', `statusline.${sid}.json`);
    await waitUntil("the relay's record", () => existsSync(feed), 30_000);
    assert.equal(JSON.parse(readFileSync(feed, 'utf8')).input.context_window.context_window_size, 1_000_000);
    const tip = (await item.getAttribute('aria-label')) ?? '';
    assert.match(tip, /context 12 percent/);
    standin.setUsage({ cache_read_input_tokens: 423_000 });
    const n = standin.messages(sid).length;
    await typeInTerminal(page, 'a bigger turn');
    await waitUntil('the second request', () => standin.messages(sid).length > n, 90_000);
    await waitUntil(
      '42% in the status bar',
      async () => (await item.innerText().catch(() => '')).includes('42%'),
      60_000,
    );
    await waitUntil(
      'the urgent colour',
      async () => /error-kind/.test((await item.getAttribute('class')) ?? ''),
      15_000,
    );
    standin.setUsage(null);
  });

  await test('"Ask the agent to checkpoint" types the trigger into the client\'s input in that terminal; Enter sends exactly that text to the model', async () => {
    const trigger = 'Apply the session-checkpoint skill';
    await runCommand(page, 'Session Ledger: Ask the agent to checkpoint');
    // Five systems: the command asks whose checkpoint; S0's trigger is plain words.
    const row = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: /^S0 majestic ledger — / })
      .first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: trigger })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await waitUntil(
      "the trigger in the client's input box",
      async () => (await terminalText(page)).replace(/\s+/g, ' ').includes(trigger),
      15_000,
    );
    assert.equal(
      standin.messages(sid).filter((q) => JSON.stringify(q.body ?? {}).includes(trigger)).length,
      0,
      'not sent: no Enter was pressed',
    );
    const n = standin.messages(sid).length;
    await runCommand(page, 'Terminal: Focus Terminal');
    await shownTerminal(page).locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Enter');
    const sent = await waitUntil(
      'the request carrying the trigger',
      () =>
        standin
          .messages(sid)
          .slice(n)
          .find((q) => q.kind === 'chat'),
      90_000,
    );
    const users = (sent.body?.messages ?? []).filter((m) => m.role === 'user');
    const last = users.at(-1);
    const words =
      typeof last.content === 'string'
        ? last.content
        : last.content
            .filter((b) => b.type === 'text' && !/^\s*<system-reminder>/.test(b.text))
            .map((b) => b.text)
            .join('\n');
    assert.equal(words.trim(), trigger);
  });
}
