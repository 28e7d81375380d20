// Accessibility in the real workbench (code-server + Chromium), run by scripts/e2e.mjs (ui phase,
// part "a11y"): axe-core inside the checklist webview in Dark Modern, Light Modern and High
// Contrast; the checklist completed with the keyboard alone until the marker is on disk; the status
// item's spoken label; a High Contrast screenshot with the urgent state.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appendTurn } from '../../scripts/lib/workspace.mjs';
import { HOMES, STATUS_ID, runCommand, waitUntil } from './ui.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The built-in themes the checklist is checked in: settings id, label in the theme picker, the workbench's class, the webview body's class. */
export const THEMES = [
  { id: 'Default Dark Modern', label: 'Dark Modern', workbench: 'vs-dark', body: 'vscode-dark' },
  { id: 'Default Light Modern', label: 'Light Modern', workbench: 'vs', body: 'vscode-light' },
  { id: 'Default High Contrast', label: 'Dark High Contrast', workbench: 'hc-black', body: 'vscode-high-contrast' },
];

/**
 * The checklist's own document: a webview's outer iframe, then its #active-frame, the one that holds
 * the write button (other webviews, such as an extension's details page, may be open too). A rescan
 * while the panel opens may load its document again: a frame detached under us is looked up anew.
 */
async function checklistFrame(page) {
  let found = null;
  await waitUntil(
    "the checklist's frame",
    async () => {
      for (const outer of await page.locator('iframe.webview').elementHandles()) {
        try {
          const inner = await (await (await outer.contentFrame())?.$('#active-frame'))?.contentFrame();
          if (inner && !inner.isDetached() && (await inner.$('#write-marker'))) {
            found = inner;
            return true;
          }
        } catch {
          // a webview torn down or reloading while we look: the next round sees its new document
        }
      }
      return false;
    },
    30_000,
  );
  return found;
}

/**
 * axe-core's rules over the checklist's document. The script is evaluated through the DevTools
 * protocol (Playwright's evaluate), which the page's CSP does not govern; the page itself still
 * loads nothing but its nonce'd script.
 */
export async function axeViolations(frame) {
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`.slice(0, 400)),
    }));
  });
}

/** Switch the colour theme with "Preferences: Color Theme"; resolves when the workbench and the checklist wear it. */
async function setTheme(page, theme) {
  if (!(await page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes(theme.workbench)) {
    await runCommand(page, 'Preferences: Color Theme');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(theme.label);
    const row = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused')
      .filter({ hasText: theme.label });
    await row.first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
  }
  await waitUntil(
    `the workbench in ${theme.id}`,
    async () => (await page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes(theme.workbench),
    30_000,
  );
  const frame = await checklistFrame(page);
  await waitUntil(
    `the checklist in ${theme.id}`,
    () => frame.evaluate((cls) => document.body.classList.contains(cls), theme.body),
    15_000,
  );
  return frame;
}

/** The command palette by keyboard: F1, type, Enter (F1 again when the workbench had no focus yet). */
async function paletteByKeyboard(page, label) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  for (let i = 0; ; i++) {
    await page.keyboard.press('F1');
    if (
      await input.waitFor({ state: 'visible', timeout: 7_500 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (i === 3) throw new Error('F1 opened no command palette');
  }
  await page.keyboard.type(label);
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused')
    .filter({ hasText: label })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
}

/** What has the keyboard focus inside the checklist: its id, its data-key, its role-ish tag, checked state. */
const focused = (frame) =>
  frame.evaluate(() => {
    const a = document.activeElement;
    return a
      ? {
          tag: a.tagName,
          id: a.id,
          key: a.getAttribute('data-key'),
          manual: a.getAttribute('data-manual'),
          checked: a.checked === true,
          text: (a.textContent ?? '').trim().slice(0, 120),
        }
      : null;
  });

const markerOf = (ws, sessionId) => join(ws, '.claude', `.checkpoint-ready.${sessionId}`);

/**
 * ctx: { page, ws, claude: { transcript, sessionId }, shots, test } — one window, after the
 * other parts or alone (`--parts a11y`): it makes the state it needs (open manual items, the urgent figure).
 */
export async function a11yTests({ page, ws, claude, shots, test }) {
  const results = {};

  await test('the status item is spoken as one plain sentence and shows its state past the urgent mark in its icon (error, or the check once the checkpoint is done), not only its colour', async () => {
    const item = page.locator(`[id="${STATUS_ID}"]`);
    appendTurn(claude.transcript, ws, 45, { sessionId: claude.sessionId });
    await waitUntil('45% in the status bar', async () => (await item.innerText()).includes('45%'), 30_000);
    await item.locator('.codicon-error, .codicon-check').first().waitFor({ state: 'visible', timeout: 15_000 });
    const label = (await item.getAttribute('aria-label')) ?? '';
    console.log(`      (status item aria-label: ${JSON.stringify(label)})`);
    // At the urgent level, whether a checkpoint covers the state or not: one ran earlier in the run and covers
    // the fixture's turns (dated before it), but a part before this one may have changed a state file since
    // (native's quick fix rewrites S0's ledger), and then it does not cover it.
    const said = /^Session Ledger: context 45 percent, past the urgent mark for S3\. Checkpoint (done|now)\./.exec(
      label,
    );
    assert.ok(said, label);
    // The icon says what the words say: the error icon while a checkpoint is asked for, the check once it is done.
    await item
      .locator(said[1] === 'done' ? '.codicon-check' : '.codicon-error')
      .waitFor({ state: 'visible', timeout: 5_000 });
    assert.doesNotMatch(label, /\$\(|\*\*|`|command:|\\/, 'no icon syntax, Markdown or escapes');
  });

  await test('the checklist is completed with the keyboard alone: Tab and Space tick the manual items, the focus moves to the write button, Enter writes the marker and the focus moves to the outcome', async () => {
    await keyboardRun();
  });

  async function keyboardRun() {
    // Open manual items: after the other parts every item may be ticked; a ledger edit re-opens the session's (their ticks hold for every state file as it was).
    const s2 = join(ws, HOMES.S2);
    const text = readFileSync(s2, 'utf8');
    writeFileSync(
      s2,
      text.replace(
        /## NEXT\n.*\n/,
        `## NEXT\nWrite the renewal migration in migrations/00${text.includes('004_renewed') ? 5 : 4}_renewed.sql and run npm test.\n`,
      ),
    );
    const marker = markerOf(ws, claude.sessionId);
    const before = existsSync(marker) ? readFileSync(marker, 'utf8') : null;
    // Let the rescan that edit starts finish before the checklist opens (it redraws the panel).
    await page.waitForTimeout(1500);
    await page.keyboard.press('Escape');
    await paletteByKeyboard(page, 'Session Ledger: Open checklist');
    const f = await checklistFrame(page);
    await waitUntil(
      'open manual items in the checklist',
      async () => (await f.locator('input[type="checkbox"][data-manual]:not(:checked)').count()) > 0,
      20_000,
    );
    await waitUntil(
      'the keyboard focus inside the checklist',
      async () => (await f.evaluate(() => document.hasFocus())) === true,
      15_000,
    );
    assert.equal(
      await f.locator('#write-marker').getAttribute('aria-disabled'),
      'true',
      'the button cannot be used yet',
    );
    // the button is focusable and says why it cannot be used
    const described = await f.evaluate(() => {
      const b = document.getElementById('write-marker');
      const id = b?.getAttribute('aria-describedby');
      return {
        disabled: b?.hasAttribute('disabled'),
        tabIndex: b?.tabIndex,
        reason: id ? document.getElementById(id)?.textContent : null,
      };
    });
    assert.equal(described.disabled, false, 'no `disabled` attribute: it stays in the Tab order');
    assert.equal(described.tabIndex, 0);
    assert.match(described.reason ?? '', /manual items? not ticked yet/);
    let ticked = 0;
    let presses = 0;
    let onButton = false;
    while (presses < 200) {
      const a = await focused(f);
      if (a?.id === 'write-marker') {
        onButton = true;
        break;
      }
      if (a?.manual && !a.checked) {
        // held as a person holds it: the host answers (and the last tick makes the button usable) before the release
        await page.keyboard.down('Space');
        await page.waitForTimeout(700);
        await page.keyboard.up('Space');
        ticked++;
        // the list redraws after each tick; the focus stays on the box (or moves to the button after the last)
        await waitUntil(
          'the tick taken',
          async () => {
            const b = await focused(f);
            return b?.id === 'write-marker' || (b?.manual === a.manual && b.checked);
          },
          10_000,
        );
        continue;
      }
      await page.keyboard.press('Tab');
      presses++;
    }
    console.log(
      `      (${ticked} item(s) ticked with Space, ${presses} Tab presses, focus on the write button: ${onButton})`,
    );
    // (the count of open items can grow while the edited ledger is re-read: count what is left instead)
    assert.ok(ticked > 0, 'manual items ticked by keyboard');
    assert.equal(
      await f.locator('input[type="checkbox"][data-manual]:not(:checked)').count(),
      0,
      'no manual item left open',
    );
    assert.ok(onButton, 'the focus reached the write button');
    await waitUntil(
      'the button usable',
      async () => (await f.locator('#write-marker').getAttribute('aria-disabled')) === 'false',
      15_000,
    );
    // the Space that ticked the last item, released on the button, must not have pressed it
    assert.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : null, before, 'no marker written before Enter');
    assert.match((await f.locator('#write-reason').innerText()).trim(), /the marker can be written/);
    await page.keyboard.press('Enter');
    await waitUntil(
      'the marker written by the keyboard',
      () => existsSync(marker) && readFileSync(marker, 'utf8') !== before,
      30_000,
    );
    await waitUntil('the focus on the outcome', async () => (await focused(f))?.id === 'result', 15_000);
    const outcome = (await f.locator('#result').innerText()).trim();
    console.log(`      (outcome under the button: ${JSON.stringify(outcome.slice(0, 160))})`);
    // The result's heading, then the marker line first.
    assert.match(outcome, /^Result\s+Marker written: \.claude\/\.checkpoint-ready\./);
    await page.keyboard.press('Escape');
  }

  await test("the checklist is heard as words: a session's manual box is named by its question; a check row says its id, its message, its place and its status apart", async () => {
    await runCommand(page, 'Session Ledger: Open checklist');
    const f = await checklistFrame(page);
    const boxes = f.getByRole('checkbox');
    await waitUntil('the manual boxes', async () => (await boxes.count()) > 0, 20_000);
    // The accessible name a screen reader says for each box (Chromium's, as Playwright computes it).
    const names = [];
    for (const b of await boxes.all()) names.push(/checkbox "([^"]*)"/.exec(await b.ariaSnapshot())?.[1] ?? '');
    console.log(`      (first box: ${JSON.stringify(names[0])})`);
    // The session's items are every system's: one box each, named by the question alone (a system's own item, S1's
    // state-reviewed, says its system first).
    assert.equal(names.length, 2, JSON.stringify(names));
    for (const n of names) assert.match(n, /^(This session's feedback|The user's last request) /, n);
    // A check row read in order: "exists .agents/session_ledger.md exists. .agents/session_ledger.md pass".
    const row = f.locator('.check[data-severity="block"][data-status="pass"]').first();
    const id = await row.getAttribute('data-check-id');
    const heard = await row.ariaSnapshot();
    console.log(`      (a passing check row: ${JSON.stringify(heard)})`);
    assert.match(heard, new RegExp(`text: ${id} \\S`), `its id, then a space: ${heard}`);
    // What the check does now: a passing blocking check says "pass", never "blocks".
    assert.match(heard, /text: pass$/m, `its status on its own: ${heard}`);
    // A row without a place: its message, then its status.
    const plain = await f.locator('.check[data-check-id="no-secrets"]').first().ariaSnapshot();
    assert.match(plain, /no-secrets \S.*\S pass$/m, `its words apart: ${plain}`);
    await page.keyboard.press('Escape');
  });

  for (const theme of THEMES) {
    await test(`axe-core finds no violation in the checklist in ${theme.id}`, async () => {
      const f = await setTheme(page, theme);
      const v = await axeViolations(f);
      results[theme.id] = v.length;
      console.log(
        `      (axe in ${theme.id}: ${v.length} violation(s)${v.length ? `: ${v.map((x) => `${x.id} (${x.impact}, ${x.nodes.length})`).join(', ')}` : ''})`,
      );
      assert.deepEqual(v, [], JSON.stringify(v, null, 2));
      if (theme.workbench === 'hc-black') {
        // the state past the urgent mark in High Contrast, where status bar backgrounds are gone: its icon says
        // it (the error icon, or the check once the keyboard run's checkpoint covers the session)
        const item = page.locator(`[id="${STATUS_ID}"]`);
        const icon = item.locator('.codicon-error, .codicon-check').first();
        await icon.waitFor({ state: 'visible', timeout: 10_000 });
        const [fg, bg] = await icon.evaluate((el) => {
          let b = el;
          while (b && getComputedStyle(b).backgroundColor === 'rgba(0, 0, 0, 0)') b = b.parentElement;
          return [getComputedStyle(el).color, b ? getComputedStyle(b).backgroundColor : 'none'];
        });
        assert.notEqual(fg, bg, 'the icon is drawn in a colour other than its background');
        await page.mouse.move(700, 300);
        await page.screenshot({ path: join(shots, 'high-contrast.png') });
      }
    });
  }
  // back to the default for what follows
  await setTheme(page, THEMES[0]).catch(() => {});
  console.log(`      (axe violations per theme: ${JSON.stringify(results)})`);
}
