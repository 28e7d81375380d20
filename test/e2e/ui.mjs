// Playwright UI tests against the real workbench (code-server) in Debian's Chromium, with the
// extension installed from the packaged .vsix. Run by scripts/e2e.mjs (phase "ui"); each test is
// one step of a user's session, in order, on one window:
//   view → checklist (ticks survive a reload) → Checkpoint now from the palette → edit on disk →
//   transcript past the thresholds.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, readdirSync, mkdirSync, copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendTurn } from '../../scripts/lib/workspace.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const STATUS_ID = 'session-ledger.session-ledger.sessionLedger.context';
/** Each system's home file in the fixture workspaces. */
export const HOMES = {
  S0: '.agents/session_ledger.md',
  S1: 'memory/session-handoff-LATEST.md',
  S2: '.claude/session-ledger.md',
  S3: 'docs/state/STATE.md',
  S4: '.agents/STATE.md',
};
/** The walkthrough's steps, in order (package.json contributes.walkthroughs). */
const WALKTHROUGH_STEPS = ['stateFile', 'hooks', 'meter', 'checkpoint'];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Open the command palette. Right after a reload the workbench may not have keyboard focus yet, so a
 * key press can go nowhere: focus the editor area and press again (F1, then Ctrl+Shift+P), a few times.
 */
async function openPalette(page) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const keys = ['F1', 'Control+Shift+P', 'F1', 'Control+Shift+P'];
  for (let i = 0; i < keys.length; i++) {
    await page.keyboard.press(keys[i]);
    try {
      await input.waitFor({ state: 'visible', timeout: i === keys.length - 1 ? 30_000 : 7_500 });
      return input;
    } catch (err) {
      if (i === keys.length - 1) throw err;
      await page
        .locator('.part.editor')
        .click({ position: { x: 40, y: 40 }, timeout: 5_000 })
        .catch(() => {});
    }
  }
  return input;
}

/** Open the command palette and run the command whose label is exactly `label`. */
export async function runCommand(page, label) {
  // A view that takes the focus a moment after it opened (a walkthrough step at the end of its slide)
  // closes the palette under the pointer: open it again, as a user would.
  for (let attempt = 1; ; attempt++) {
    const last = attempt === 3;
    const input = await openPalette(page);
    const row = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: label })
      .first();
    try {
      // The same late focus can close the palette between opening it and typing: the fill is retried too.
      await input.fill(`>${label}`, { timeout: last ? 30_000 : 5_000 });
      await row.waitFor({ state: 'visible', timeout: last ? 15_000 : 5_000 });
      await row.click({ timeout: last ? 30_000 : 5_000 });
    } catch (err) {
      if (last) throw err;
      await page.keyboard.press('Escape');
      continue;
    }
    await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
    return;
  }
}

/** The palette's rows for a filter (then closes it). */
export async function paletteRows(page, filter) {
  const input = await openPalette(page);
  await input.fill(`>${filter}`);
  await page.waitForTimeout(800);
  const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts();
  await page.keyboard.press('Escape');
  return rows.map((r) => r.split('\n')[0].trim());
}

/** Wait until the open quick pick is the step titled `title` (VS Code writes the step after the title: "Install guard hooks (2/4)"). */
async function waitForStep(page, title) {
  await waitUntil(
    `the quick pick titled "${title}"`,
    async () =>
      (await page
        .locator('.quick-input-widget .quick-input-title')
        .filter({ visible: true })
        .innerText()
        .catch(() => '')) === title,
    15_000,
  );
}

/** At the quick pick step titled `title`, pick the row matching `re`. */
async function pickStep(page, title, re) {
  await waitForStep(page, title);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: re }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
}

/** Open the Session Ledger container from the activity bar (a click on the active one would close it). */
export async function showView(page) {
  const tab = page.locator('.part.activitybar').getByRole('tab', { name: 'Session Ledger', exact: true });
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  const open =
    (await tab.getAttribute('aria-selected')) === 'true' && (await page.locator('.part.sidebar').isVisible());
  if (!open) await tab.click();
  await page.locator('.part.sidebar').getByRole('tree').first().waitFor({ state: 'visible', timeout: 15_000 });
}

/** The ledger view's "Collapse All" title action: every root in view, none expanded. */
async function collapseAll(page) {
  // one view in the container: its title actions sit in the side bar's title, the pane header is hidden
  const btn = page.locator('.part.sidebar').getByRole('button', { name: 'Collapse All' }).filter({ visible: true });
  await btn.first().waitFor({ state: 'visible', timeout: 30_000 });
  await btn.first().click();
}

/** Expand a tree row with its twistie (a click on the row itself opens the file). */
async function expand(row) {
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await waitUntil('the row to expand', async () => (await row.getAttribute('aria-expanded')) === 'true', 10_000);
}

export const checklist = (page) => page.frameLocator('iframe.webview').frameLocator('#active-frame');

export async function waitUntil(what, probe, timeout = 20_000) {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - t0 > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * For a screenshot whose subject is not a notification: clear the toasts (a checkpoint notice that no longer
 * holds, say) so none covers what the picture shows, and wait until none is drawn.
 */
async function clearToasts(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await waitUntil(
    'no notification toast drawn',
    async () => (await page.locator('.notifications-toasts .notification-toast').count()) === 0,
    10_000,
  );
}

/**
 * A toast or a hover fades (and slides) in: wait until it is drawn whole, for a screenshot: it and every
 * box around it opaque, and no animation or transition running on it, inside it or around it.
 */
async function drawnWhole(el) {
  await waitUntil(
    'the notification or hover drawn whole',
    () =>
      el.evaluate((node) => {
        for (let n = node; n instanceof Element; n = n.parentElement)
          if (getComputedStyle(n).opacity !== '1') return false;
        return document
          .getAnimations()
          .filter((a) => a.effect?.target && (a.effect.target.contains(node) || node.contains(a.effect.target)))
          .every((a) => a.playState !== 'running');
      }),
    10_000,
  );
}

/**
 * A toast's bottom line as drawn: its source ("Source: Session Ledger") and its buttons, and whether the
 * source shows whole (VS Code gives it the width the buttons leave, then cuts it or wraps it out of sight).
 */
async function toastLine(toast) {
  return toast.evaluate((node) => {
    const src = node.querySelector('.notification-list-item-source');
    const buttons = [...node.querySelectorAll('.notification-list-item-buttons-container .monaco-button')];
    if (!src) return { source: '', whole: false, buttons: buttons.map((b) => b.textContent) };
    const box = src.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(src);
    const inside = [...range.getClientRects()].every(
      (r) =>
        r.left >= box.left - 0.5 &&
        r.right <= box.right + 0.5 &&
        r.top >= box.top - 0.5 &&
        r.bottom <= box.bottom + 0.5,
    );
    return {
      source: src.textContent,
      whole: inside && src.scrollWidth <= src.clientWidth,
      buttons: buttons.map((b) => b.textContent),
    };
  });
}

/** Hover an item and wait until its hover, holding `text`, is drawn whole. */
async function hoverShown(page, item, text) {
  await item.hover();
  const hover = page.locator('.monaco-hover').filter({ hasText: text }).first();
  await hover.waitFor({ state: 'visible', timeout: 10_000 });
  await drawnWhole(hover);
}

const markers = (ws) =>
  existsSync(join(ws, '.claude'))
    ? readdirSync(join(ws, '.claude')).filter((n) => n.startsWith('.checkpoint-ready'))
    : [];

/** `session-ledger checkpoint --confirm feedback-stored,last-request` for the session, as the user runs it in a terminal. */
const confirmOnCli = (ws, claude) =>
  spawnSync(
    process.execPath,
    [
      join(REPO, 'dist', 'cli.js'),
      'checkpoint',
      '--root',
      ws,
      '--session',
      claude.sessionId,
      '--confirm',
      'feedback-stored,last-request',
    ],
    { encoding: 'utf8', env: { ...process.env, CLAUDE_CONFIG_DIR: claude.home, LANG: 'C', LC_ALL: '' } },
  );

/**
 * ctx: { page, server, ws, claude: { transcript, sessionId }, shots (folder for screenshots), test }
 * test(name, fn) runs and records one test.
 */
/**
 * Whether a tree row's label is cut at the sidebar's width: null when it is whole, else its text and how
 * far it runs over. When the row's text (label and description) overflows, VS Code draws an ellipsis at
 * the box's right edge, over what lies under it: the label is whole only left of the ellipsis.
 */
export async function labelCut(row) {
  return row
    .locator('.label-name')
    .first()
    .evaluate((el) => {
      const box = el.closest('.monaco-icon-label-container') ?? el.parentElement;
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = getComputedStyle(box).font;
      const ellipsis = box.scrollWidth > box.clientWidth ? pen.measureText('…').width : 0;
      const over = el.getBoundingClientRect().right + ellipsis - box.getBoundingClientRect().right;
      return over <= 0.5 ? null : `${el.textContent} (${over.toFixed(1)} px over)`;
    });
}

export async function uiTests({ page, ws, claude, shots, test, workbench }) {
  mkdirSync(shots, { recursive: true });
  const shot = (name) => page.screenshot({ path: join(shots, name) });

  await test('the Session Ledger view shows each detected system as a root; its first rows are the next action and the findings', async () => {
    await showView(page);
    // The side bar's title: the view is named as its container, so VS Code shows the name once ("SESSION
    // LEDGER"), whole at the default width, not "SESSION LEDGER: LEDG…".
    const heading = page.locator('.part.sidebar .composite.title .title-label h2').first();
    assert.equal((await heading.textContent())?.trim(), 'Session Ledger');
    assert.equal(
      await heading.evaluate((el) => el.scrollWidth <= el.clientWidth),
      true,
      'the side bar title is whole at the default width',
    );
    await collapseAll(page);
    for (const id of Object.keys(HOMES)) {
      await page
        .getByRole('treeitem', { name: new RegExp(`^${id} \\S.* — (WORKING|PARTIAL|BROKEN)`) })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    }
    // S4: expand its root alone; its rows in order are the next action, then the compaction warning
    const s4root = page.getByRole('treeitem', { name: /^S4 \S.* — / });
    await expand(s4root);
    // the rows right under the S4 root, by their place in the list
    const at = Number(await s4root.getAttribute('data-index'));
    const child = (n) => page.locator(`.part.sidebar [role="treeitem"][data-index="${at + n}"]`);
    // rows are named in plain words for a screen reader: no backticks, the severity first
    await waitUntil("S4's first row", async () =>
      /^Next action: Add expireHolds/.test(
        (await child(1)
          .getAttribute('aria-label')
          .catch(() => '')) ?? '',
      ),
    );
    assert.equal(await child(1).getAttribute('aria-level'), '2');
    assert.match((await child(2).getAttribute('aria-label')) ?? '', /^Warning: S4 compaction: /);
    // every root's label (the system's name and its label) is whole at the default sidebar width
    await collapseAll(page);
    for (const id of Object.keys(HOMES))
      assert.equal(
        await labelCut(page.getByRole('treeitem', { name: new RegExp(`^${id} \\S.* — `) }).first()),
        null,
        `the ${id} root label is not cut`,
      );
    // S3: Documents → docs/state/STATE.md → Handoff → the Now ▶ item
    await expand(page.getByRole('treeitem', { name: /^S3 Groundwork — / }));
    await expand(page.getByRole('treeitem', { name: /^Documents/ }).first());
    await expand(page.getByRole('treeitem', { name: new RegExp(`^S3 ${esc(HOMES.S3)} — `) }));
    await expand(page.getByRole('treeitem', { name: /^Handoff: read this first/ }));
    await page.getByRole('treeitem', { name: /Now ▶/ }).first().waitFor({ state: 'visible' });
    await collapseAll(page);
    await expand(page.getByRole('treeitem', { name: /^S4 \S.* — / }));
    await expand(page.getByRole('treeitem', { name: /^S0 \S.* — / }));
    await page.mouse.move(700, 400);
    await shot('ledger-tree.png');
  });

  await test("the status bar shows the session's context usage (10 %) without a warning colour", async () => {
    const item = page.locator(`[id="${STATUS_ID}"]`);
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await waitUntil('10% in the status bar', async () => (await item.innerText()).includes('10%'));
    await item.locator('.codicon-pulse').waitFor();
    // a screen reader hears the plain label, not the tooltip's Markdown
    assert.match(
      (await item.getAttribute('aria-label')) ?? '',
      /^Session Ledger: context 10 percent, under the checkpoint mark for S3 \(15 percent\)\./,
    );
    const cls = (await item.getAttribute('class')) ?? '';
    assert.ok(!/warning-kind|error-kind/.test(cls), `no warning/error colour at 10 % (class: ${cls})`);
  });

  await test('the checklist lists the checks and the overall label; manual ticks survive a reload', async () => {
    await runCommand(page, 'Session Ledger: Open checklist');
    const f = checklist(page);
    const overall = f.locator('#overall');
    await overall.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await overall.innerText(), /^(WORKING|PARTIAL|BROKEN)$/);
    for (const id of Object.keys(HOMES)) await f.locator(`section.system[data-system="${id}"]`).waitFor();
    await f
      .locator('section.system[data-system="S3"] .check[data-check-id="handoff-block"][data-status="pass"]')
      .waitFor();
    await f
      .locator('section.system[data-system="S4"] .check[data-check-id="compaction"][data-status="warn"]')
      .waitFor();
    await f
      .locator('section.system[data-system="S1"] .check[data-check-id="attestation"][data-status="pass"]')
      .waitFor();
    // The Next line draws the next action's code spans as code (S3's Now ▶ holds three), no backtick shown.
    assert.deepEqual(await f.locator('section.system[data-system="S3"] .meta code').allInnerTexts(), [
      'renew(db, loanId, now)',
      'src/loans.ts',
      'test/loans.test.ts',
    ]);
    for (const meta of await f.locator('section.system .meta').allInnerTexts()) assert.doesNotMatch(meta, /`/, meta);
    const write = f.locator('#write-marker');
    assert.match(await write.innerText(), /Write marker & copy resume prompt/);
    // The session's two items, once for the five systems: one box each, above the systems, none in a system.
    const boxes = f.locator('input[type="checkbox"][data-manual]');
    const n = await boxes.count();
    assert.equal(n, 2, `manual items to tick (found ${n})`);
    assert.equal(await f.locator('section.system[data-system="session"] input[data-manual]').count(), 2);
    assert.deepEqual(
      await f
        .locator('section.system[data-system="session"] .check')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-check-id'))),
      ['feedback-stored', 'last-request'],
    );
    // Each box says when its tick is reset (its tooltip), as the words under the heading do.
    for (const title of await f
      .locator('section.system[data-system="session"] label')
      .evaluateAll((ls) => ls.map((l) => l.getAttribute('title') ?? '')))
      assert.match(title, /reset when any detected system's state file changes/, title);
    assert.match(await f.locator('#session-help').innerText(), /reset when any detected system's state file changes/);
    // the list re-renders after each tick: always take the first box still open
    for (let i = 0; i < n; i++) {
      const open = f.locator('input[type="checkbox"][data-manual]:not(:checked)');
      if ((await open.count()) === 0) break;
      await open.first().click();
      await page.waitForTimeout(300);
    }
    await waitUntil(
      'every manual item ticked',
      async () => (await f.locator('input[type="checkbox"][data-manual]:checked').count()) === n,
      10_000,
    );
    await shot('checklist.png');
    // reload the whole window; the ticks are kept by the extension, not by the page
    let t = Date.now();
    await page.reload();
    await workbench();
    console.log(`      (window reloaded in ${Date.now() - t} ms)`);
    t = Date.now();
    await runCommand(page, 'Session Ledger: Open checklist');
    const f2 = checklist(page);
    await f2.locator('#overall').waitFor({ state: 'visible', timeout: 30_000 });
    const boxes2 = f2.locator('input[type="checkbox"][data-manual]');
    await waitUntil('the manual boxes after the reload', async () => (await boxes2.count()) === n);
    for (let i = 0; i < n; i++)
      assert.equal(
        await boxes2.nth(i).isChecked(),
        true,
        `manual item ${await boxes2.nth(i).getAttribute('data-manual')} is still ticked`,
      );
    assert.equal(
      await f2.locator('#write-marker').getAttribute('aria-disabled'),
      'false',
      'nothing blocks: the write button can be used',
    );
    console.log(`      (checklist re-read in ${Date.now() - t} ms)`);
    // Re-check with nothing changed still says it was done: when, and that nothing changed, in a live region.
    const rechecked = f2.locator('#rechecked');
    assert.equal(await rechecked.isVisible(), false, 'nothing said before a Re-check');
    assert.equal(await rechecked.getAttribute('aria-live'), 'polite');
    assert.equal(await rechecked.getAttribute('role'), 'status');
    await f2.locator('#refresh').click();
    await rechecked.waitFor({ state: 'visible', timeout: 15_000 });
    const said = await rechecked.innerText();
    assert.match(said, /^Checked again at \d\d:\d\d:\d\d: nothing changed\.$/, said);
  });

  await test("an information-level finding (S0's UNCONFIRMED items) is information in the checklist, as in the tree, Problems and the CLI", async () => {
    const rows = checklist(page).locator('section.system[data-system="S0"] .check[data-check-id="unconfirmed"]');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      assert.equal((await row.locator('.sev').innerText()).trim(), 'info', 'its words: info, not "warning · info"');
      assert.equal((await row.locator('.icon').innerText()).trim(), 'i', 'its icon: information, not "!"');
      assert.equal(await row.getAttribute('data-mark'), 'info', 'its bar: information, not the warning colour');
      // The item's code span (`UNCONFIRMED`) is drawn as code, its backticks not shown nor heard.
      assert.equal((await row.locator('.body > code').last().innerText()).trim(), 'UNCONFIRMED');
      assert.doesNotMatch(await row.innerText(), /`/, 'no backtick shown');
      assert.doesNotMatch(await row.ariaSnapshot(), /`/, 'no backtick heard');
    }
    // Nor does any fix hint show one (their code spans are code elements too).
    for (const hint of await checklist(page).locator('.check .hint').allInnerTexts())
      assert.doesNotMatch(hint, /`/, hint);
  });

  await test('"Session Ledger: Checkpoint now" from the command palette writes the marker on disk', async () => {
    assert.deepEqual(markers(ws), [], 'no marker before');
    await runCommand(page, 'Session Ledger: Checkpoint now');
    const marker = join(ws, '.claude', `.checkpoint-ready.${claude.sessionId}`);
    await waitUntil(`the marker ${marker}`, () => existsSync(marker), 30_000);
    assert.deepEqual(markers(ws), [`.checkpoint-ready.${claude.sessionId}`]);
    const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Checkpoint written.' });
    await toast.first().waitFor({ state: 'visible', timeout: 15_000 });
    // The closing in short: the step to type and for which systems; each system's closing words are the log's.
    const said = await toast.first().innerText();
    assert.doesNotMatch(said, /`/, said);
    assert.match(said, /Type one of the two, not both: \/clear \(S0, S3\) or \/compact \(S1, S2, S4\)\./, said);
    assert.doesNotMatch(said, /queueReminder|\.checkpoint-ready/, said);
    await drawnWhole(toast.first());
    // Two buttons at most, and the source beside them whole; the message says the prompt is on the clipboard.
    const line = await toastLine(toast.first());
    console.log(`      (toast's line: ${JSON.stringify(line)})`);
    assert.ok(line.whole && /Session Ledger/.test(line.source), JSON.stringify(line));
    assert.ok(line.buttons.length >= 1 && line.buttons.length <= 2, JSON.stringify(line));
    assert.match(said, /The resume prompt is on the clipboard\./, said);
    await shot('checkpoint.png');
    await page.keyboard.press('Escape');
  });

  await test('an edit of a ledger on disk shows in the tree', async () => {
    await showView(page);
    await collapseAll(page);
    const file = join(ws, HOMES.S2);
    const next = 'Write the renewal migration in migrations/004_renewed.sql and run npm test.';
    writeFileSync(file, readFileSync(file, 'utf8').replace(/## NEXT\n.*\n/, `## NEXT\n${next}\n`));
    await expand(page.getByRole('treeitem', { name: /^S2 \S.* — / }));
    await expand(page.getByRole('treeitem', { name: /^Documents/ }).first());
    await expand(page.getByRole('treeitem', { name: new RegExp(`^S2 ${esc(HOMES.S2)} — `) }));
    await expand(page.getByRole('treeitem', { name: /^NEXT/ }).first());
    await page
      .getByRole('treeitem', { name: /Write the renewal migration/ })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
  });

  await test('usage appended to the transcript turns the status bar to the warning, then the error colour', async () => {
    const item = page.locator(`[id="${STATUS_ID}"]`);
    appendTurn(claude.transcript, ws, 30, { sessionId: claude.sessionId });
    await waitUntil('30% in the status bar', async () => (await item.innerText()).includes('30%'));
    await waitUntil(
      'the warning colour',
      async () => /warning-kind/.test((await item.getAttribute('class')) ?? ''),
      10_000,
    );
    await item.locator('.codicon-warning').waitFor();
    const warnBg = await item.evaluate((el) => getComputedStyle(el).backgroundColor);
    await clearToasts(page);
    await hoverShown(page, item, 'Checkpoint proposed');
    await shot('status-warning.png');
    appendTurn(claude.transcript, ws, 45, { sessionId: claude.sessionId });
    await waitUntil('45% in the status bar', async () => (await item.innerText()).includes('45%'));
    await waitUntil(
      'the error colour',
      async () => /error-kind/.test((await item.getAttribute('class')) ?? ''),
      10_000,
    );
    await item.locator('.codicon-error').waitFor();
    // "Checkpoint now" ran above, and the turns appended since carry the fixture's own (earlier) times,
    // but S2's ledger was edited after it (the test above): the checkpoint does not cover the ledger as it
    // is now, so the item asks for a checkpoint and says which file changed (the click below is refused
    // on S2's ticks, which that edit reset), never "Checkpoint done".
    const label = await waitUntil(
      'the label naming the ledger changed since the checkpoint',
      async () => {
        const l = (await item.getAttribute('aria-label')) ?? '';
        return l.includes(`${HOMES.S2} changed after the last checkpoint`) ? l : undefined;
      },
      10_000,
    );
    assert.match(label, /^Session Ledger: context 45 percent, past the urgent mark for S3\. Checkpoint now\./);
    assert.doesNotMatch(label, /Checkpoint done/);
    const errBg = await item.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(errBg, warnBg, 'the background colour changed');
    // the item's tooltip with the urgent line, no toast over the picture
    await clearToasts(page);
    await hoverShown(page, item, 'Past the urgent threshold');
    await shot('status-error.png');
  });

  await test('a click on the status bar runs Checkpoint now; the ledger edit reset its ticks, so the checklist asks for them; its button writes the marker', async () => {
    const marker = join(ws, '.claude', `.checkpoint-ready.${claude.sessionId}`);
    const before = readFileSync(marker, 'utf8');
    await page.locator(`[id="${STATUS_ID}"]`).click();
    const toast = page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: /manual items? not ticked/ });
    await toast.first().waitFor({ state: 'visible', timeout: 15_000 });
    // The refusal names the session's two items once, in the checklist's words, by no system and never by their ids.
    const refusal = await toast.first().innerText();
    assert.match(
      refusal,
      /2 manual items not ticked: This session's feedback is stored in memory\. The user's last request is completed or recorded\. Tick them/,
      refusal,
    );
    assert.doesNotMatch(refusal, /feedback-stored|last-request|S\d: This session/, refusal);
    const f = checklist(page);
    // S2's ledger is one of the state files the session's ticks hold for: both boxes are open again.
    const open = f.locator('section.system[data-system="session"] input[type="checkbox"][data-manual]:not(:checked)');
    await waitUntil(
      "the session's manual items open again after S2's ledger changed",
      async () => (await open.count()) === 2,
      10_000,
    );
    assert.equal(await f.locator('input[type="checkbox"][data-manual]').count(), 2, 'two boxes, no more');
    while ((await open.count()) > 0) {
      await open.first().click();
      await page.waitForTimeout(300);
    }
    // A short window (the editor area shorter than the result, as with a panel open): the result the button
    // scrolls to shows its heading and first line below the checklist's sticky header, not under it.
    const size = page.viewportSize();
    await page.setViewportSize({ width: size.width, height: 420 });
    try {
      await f.locator('#write-marker').click();
      await waitUntil(
        "the marker rewritten by the checklist's button",
        () => readFileSync(marker, 'utf8') !== before,
        15_000,
      );
      assert.deepEqual(markers(ws), [`.checkpoint-ready.${claude.sessionId}`]);
      await f.locator('#result h2').waitFor({ state: 'visible', timeout: 15_000 });
      await page.waitForTimeout(500);
      const at = await f.locator('#result').evaluate((r) => ({
        header: document.querySelector('header').getBoundingClientRect().bottom,
        heading: r.querySelector('h2').getBoundingClientRect().top,
        focused: document.activeElement === r,
      }));
      assert.ok(at.focused, 'the result has the focus');
      assert.ok(
        at.heading >= at.header,
        `the result's heading (top ${at.heading}) is below the sticky header (bottom ${at.header})`,
      );
    } finally {
      await page.setViewportSize(size);
    }
  });

  await test("the checklist's result under its button shows no go-signal once the state is BROKEN", async () => {
    const f = checklist(page);
    const result = f.locator('#result');
    await waitUntil(
      'the go-signal under the button',
      async () => /Safe to run \/compact now/.test(await result.innerText().catch(() => '')),
      15_000,
    );
    const file = join(ws, HOMES.S3);
    const before = readFileSync(file, 'utf8');
    try {
      // Now ▶ emptied: S3's next action is gone, a blocking check fails
      writeFileSync(file, before.replace(/^(- \*\*Now ▶\*\*).*$/m, '$1'));
      await waitUntil('Overall: BROKEN', async () => (await f.locator('#overall').innerText()) === 'BROKEN', 20_000);
      // (the assertions below say what stayed, if it stayed)
      await waitUntil(
        'the result marked as past',
        async () => /no longer holds/.test(await result.innerText()),
        10_000,
      ).catch(() => {});
      const text = await result.innerText();
      assert.doesNotMatch(
        text,
        /Safe to run|Checkpoint saved/,
        `no go-signal left under the button: ${JSON.stringify(text)}`,
      );
      assert.match(text, /no longer holds: the checks changed after it was given/);
    } finally {
      writeFileSync(file, before);
    }
    await waitUntil('S3 read again', async () => (await f.locator('#overall').innerText()) !== 'BROKEN', 20_000);
  });

  await test('the checklist names what blocks at its top, each a button that takes the focus to its row far down the page', async () => {
    const f = checklist(page);
    const file = join(ws, HOMES.S3);
    const before = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, before.replace(/^(- \*\*Now ▶\*\*).*$/m, '$1'));
      await waitUntil('Overall: BROKEN', async () => (await f.locator('#overall').innerText()) === 'BROKEN', 20_000);
      const links = f.locator('#blocked ul.blocking button');
      await links.first().waitFor({ state: 'visible', timeout: 10_000 });
      // Only what blocks: S3's empty Now ▶, said as its row says it (not "vague" with empty quotes).
      assert.deepEqual(await links.allInnerTexts(), [
        'S3 next-action: The next action is empty (Now ▶ in ## Handoff).',
      ]);
      await links.first().click();
      const row = f.locator('section.system[data-system="S3"] .check[data-check-id="next-action"]');
      await waitUntil(
        "the focus in S3's next-action row",
        () => row.evaluate((r) => r.contains(document.activeElement)),
        5_000,
      );
      const box = await row.evaluate((r) => {
        const b = r.getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, height: innerHeight };
      });
      assert.ok(box.top >= 0 && box.bottom <= box.height, `the row in view: ${JSON.stringify(box)}`);
      await shot('checklist-blocked.png');
      // The status item says the same, not "Checkpoint now" (which would be refused), and names the check.
      const status = page.locator(`[id="${STATUS_ID}"]`);
      const blocked = await waitUntil(
        'the status item naming what blocks',
        async () => {
          const l = (await status.getAttribute('aria-label')) ?? '';
          return l.includes('A blocking check fails, so a checkpoint is refused:') ? l : undefined;
        },
        15_000,
      );
      assert.ok(
        blocked.includes(
          'refused: S3 next-action: The next action is empty (Now ▶ in ## Handoff). Fix it first; the item opens its row in the checklist.',
        ),
        blocked,
      );
      assert.doesNotMatch(blocked, /Checkpoint now\.|Checkpoint proposed\./);
    } finally {
      writeFileSync(file, before);
    }
    await waitUntil('S3 read again', async () => (await f.locator('#overall').innerText()) !== 'BROKEN', 20_000);
    assert.equal(await f.locator('#blocked').count(), 0, 'no blocked note once nothing blocks');
    const status = page.locator(`[id="${STATUS_ID}"]`);
    await waitUntil(
      'the status item without the blocked words',
      async () => !((await status.getAttribute('aria-label')) ?? '').includes('A blocking check fails'),
      15_000,
    );
  });

  await test("a checkpoint on the command line with --confirm ticks the session's two items in the checklist and the tree", async () => {
    const f = checklist(page);
    const boxes = f.locator('section.system[data-system="session"] input[type="checkbox"][data-manual]');
    const file = join(ws, HOMES.S2);
    const before = readFileSync(file, 'utf8');
    try {
      // A ledger edit resets the ticks given in the checklist: both boxes open.
      writeFileSync(file, `${before.replace(/\n*$/, '')}\n- keep the renewal window at 14 days\n`);
      const open = async () =>
        (await boxes.evaluateAll((bs) => bs.filter((b) => !b.checked).length)) === 2 ? true : undefined;
      await waitUntil("the session's items open after the ledger edit", open, 15_000);
      // The user confirms them on the command line, in the terminal.
      const r = confirmOnCli(ws, claude);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`Marker written: \\.claude/\\.checkpoint-ready\\.${claude.sessionId}`));
      // The checklist asks no more: its marker says the user confirmed both for these files.
      await waitUntil(
        'both boxes ticked by the marker',
        async () => (await boxes.evaluateAll((bs) => bs.filter((b) => b.checked).length)) === 2,
        15_000,
      );
      await showView(page);
      await collapseAll(page);
      assert.equal(
        await page.getByRole('treeitem', { name: /manual items? to tick/ }).count(),
        0,
        'no tree row asks for manual items',
      );
    } finally {
      writeFileSync(file, before);
    }
  });

  await test("the tree lists the session's row first, as the checklist does; unticking a box the marker ticked sticks and withdraws the marker", async () => {
    const f = checklist(page);
    const box = (id) => f.locator(`section.system[data-system="session"] input[data-manual="session:${id}"]`);
    const ticked = async (id) => box(id).evaluate((b) => b.checked);
    const file = join(ws, HOMES.S2);
    const marker = join(ws, '.claude', `.checkpoint-ready.${claude.sessionId}`);
    const before = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, `${before.replace(/\n*$/, '')}\n- keep the grace period at 2 days\n`);
      await waitUntil(
        "the session's items open after the ledger edit",
        async () => !(await ticked('feedback-stored')) && !(await ticked('last-request')),
        15_000,
      );
      // The tree asks for them first, above the systems, as the checklist's first section does.
      await showView(page);
      await collapseAll(page);
      const row = page.getByRole('treeitem', { name: /manual items? to tick/ }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      // The tree's first row: its label whole at the default sidebar width.
      assert.equal(await labelCut(row), null, "the session's row label is not cut");
      const at = async (el) => Number(await el.getAttribute('data-index'));
      const systems = await Promise.all(
        Object.keys(HOMES).map((id) => at(page.getByRole('treeitem', { name: new RegExp(`^${id} \\S.* — `) }).first())),
      );
      assert.ok(
        (await at(row)) < Math.min(...systems),
        `the session's row (${await at(row)}) before the systems (${systems})`,
      );
      assert.equal(await f.locator('section.system').first().getAttribute('data-system'), 'session');
      const r = confirmOnCli(ws, claude);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      await waitUntil(
        'both boxes ticked by the marker',
        async () => (await ticked('feedback-stored')) && (await ticked('last-request')),
        15_000,
      );
      // Past the urgent mark, the status item says the checkpoint is done: the marker covers the session.
      const status = page.locator(`[id="${STATUS_ID}"]`);
      const label = async () => (await status.getAttribute('aria-label')) ?? '';
      await waitUntil(
        'the status item says the checkpoint is done',
        async () => /Checkpoint done\./.test(await label()),
        15_000,
      );
      // The user unticks one: it is no longer confirmed. The marker that let /compact through is withdrawn.
      await box('feedback-stored').click();
      await waitUntil('the marker withdrawn', () => !existsSync(marker), 15_000);
      await page.waitForTimeout(1500);
      assert.equal(await ticked('feedback-stored'), false, 'the untick sticks');
      assert.equal(await ticked('last-request'), true, 'the other item the marker confirmed stays ticked');
      // The status item asks for a checkpoint again, in the error colour.
      await waitUntil(
        'the status item says checkpoint now',
        async () => /Checkpoint now\./.test(await label()),
        15_000,
      );
      assert.match((await status.getAttribute('class')) ?? '', /error-kind/);
      assert.match(await f.locator('#write-reason').innerText(), /1 manual item not ticked yet/);
      // Ticked again: it counts again (a tick given in the checklist); the marker stays withdrawn.
      await box('feedback-stored').click();
      await waitUntil('ticked again', () => ticked('feedback-stored'), 10_000);
      assert.equal(existsSync(marker), false);
      // A new checkpoint writes a marker again, and the status item follows it: the session is covered again
      // (and the tests after this one find a checkpoint made, as before the withdrawal).
      const again = confirmOnCli(ws, claude);
      assert.equal(again.status, 0, again.stdout + again.stderr);
      await waitUntil('the new marker on disk', () => existsSync(marker), 15_000);
      await waitUntil(
        'the status item says the checkpoint is done again',
        async () => /Checkpoint done\./.test(await label()),
        15_000,
      );
    } finally {
      writeFileSync(file, before);
    }
  });
}

/** The Problems panel's rows (opened with its command), as text. */
async function problemsRows(page) {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false)))
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  await panel.waitFor({ state: 'visible', timeout: 15_000 });
  return panel.locator('.monaco-list-row');
}

/** The editor's cursor position as the status bar shows it ("Ln 19, Col 1"). */
async function cursorAt(page) {
  return (
    await page
      .locator('[id="status.editor.selection"]')
      .innerText()
      .catch(() => '')
  ).trim();
}

/**
 * Part two, on the same window: the Problems panel, a quick fix, the walkthrough.
 */
export async function nativeTests({ page, ws, shots, test }) {
  const shot = (name) => page.screenshot({ path: join(shots, name) });

  await test('the Problems panel lists a failing check with its id; a click opens the right line', async () => {
    const rows = await problemsRows(page);
    const row = rows.filter({ hasText: 'compaction' }).filter({ hasText: 'Session Ledger' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await row.innerText();
    assert.match(text, /Current Feature/, text);
    assert.match(text, /\[Ln 19, Col 1\]/, text);
    // for the screenshot: the checklist drawn above the panel, no toast over the rows
    await clearToasts(page);
    await checklist(page).locator('#overall').waitFor({ state: 'visible', timeout: 30_000 });
    await shot('problems.png');
    await row.click();
    await waitUntil(
      '.agents/STATE.md open at line 19',
      async () => /^Ln 19, Col \d+/.test(await cursorAt(page)),
      15_000,
    );
    const tab = page.locator('.tabs-container .tab.active');
    assert.match(await tab.innerText(), /STATE\.md/);
  });

  await test('a quick fix applies from the editor (Ctrl+.) and its finding disappears', async () => {
    const file = join(ws, HOMES.S0);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/_Last updated: [^_]*_/, '_Last updated: <timestamp>_'));
    const rows = await problemsRows(page);
    const row = rows.filter({ hasText: 'timestamp' }).filter({ hasText: 'Session Ledger' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await row.innerText(), /\[Ln 3, Col 1\]/);
    // an editor hover from the last step may cover the panel: dismiss it first
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 5);
    await row.click();
    await waitUntil('the ledger open at line 3', async () => /^Ln 3, Col \d+/.test(await cursorAt(page)), 15_000);
    // no toast over the Problems rows in the screenshot below (before Ctrl+.: a command closes its menu)
    await clearToasts(page);
    // Ctrl+. on the line; the diagnostic can reach the editor a moment after the panel: ask again then
    const item = page.locator('.action-widget .monaco-list-row').filter({ hasText: 'Set _Last updated:_ to now' });
    await waitUntil(
      'the quick fix in the Ctrl+. menu',
      async () => {
        await page.locator('.part.editor .monaco-editor textarea').first().focus();
        await page.keyboard.press('Control+.');
        const ok = await item
          .first()
          .waitFor({ state: 'visible', timeout: 4_000 })
          .then(
            () => true,
            () => false,
          );
        if (!ok) await page.keyboard.press('Escape');
        return ok;
      },
      40_000,
    );
    await shot('quick-fix.png');
    // Enter applies the focused entry (a click can be taken by a hover): move the focus onto the fix first
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 10 && !/Set _Last updated:_ to now/.test(await focused.innerText().catch(() => '')); i++)
      await page.keyboard.press('ArrowDown');
    assert.match(await focused.innerText(), /Set _Last updated:_ to now/, 'the fix is the focused entry');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    await waitUntil(
      'the timestamp written to disk',
      () => /_Last updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ_/.test(readFileSync(file, 'utf8')),
      15_000,
    );
    await waitUntil(
      'the timestamp finding gone from the Problems panel',
      async () => (await rows.filter({ hasText: 'timestamp' }).filter({ hasText: 'Session Ledger' }).count()) === 0,
      20_000,
    );
  });

  await test('"Install guard hooks" asks under its title, step by step ("Install guard hooks (2/4)"); Back returns to the question before with its answer chosen; Escape at any step writes nothing', async () => {
    const settings = join(ws, '.claude', 'settings.json');
    assert.equal(existsSync(settings), false, 'no hooks installed yet');
    await runCommand(page, 'Session Ledger: Install guard hooks');
    await pickStep(page, 'Install guard hooks (1/4)', /^Claude Code\s*\.claude\/settings\.json/);
    await pickStep(page, 'Install guard hooks (2/4)', /^\.claude\/settings\.local\.json/);
    await waitForStep(page, 'Install guard hooks (3/4)');
    // Back: the question before, the answer given still the chosen row
    await page.locator('.quick-input-widget .quick-input-titlebar').getByRole('button', { name: 'Back' }).click();
    await waitForStep(page, 'Install guard hooks (2/4)');
    await waitUntil(
      'the answer given still chosen',
      async () =>
        /^\.claude\/settings\.local\.json/.test(
          (await page
            .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused')
            .innerText()
            .catch(() => '')) || '',
        ),
      10_000,
    );
    await pickStep(page, 'Install guard hooks (2/4)', /^\.claude\/settings\.json/);
    await waitForStep(page, 'Install guard hooks (3/4)');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await page.waitForTimeout(1_500);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no preview asked');
    assert.equal(existsSync(settings), false, 'Escape wrote nothing');
    assert.equal(existsSync(join(ws, '.claude', 'settings.local.json')), false, 'Escape wrote nothing');
    // Codex CLI alone asks nothing more: Escape at its preview writes nothing either
    await runCommand(page, 'Session Ledger: Install guard hooks');
    await pickStep(page, 'Install guard hooks (1/4)', /^Codex CLI/);
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.equal(existsSync(join(ws, '.codex', 'hooks.json')), false, 'the preview cancelled wrote nothing');
  });

  await test("the walkthrough's steps tick on their own events: state file and meter found, hooks installed from the step, first checkpoint", async () => {
    const box = page.locator('.gettingStartedContainer');
    const step = (id) => box.locator(`button.getting-started-step[data-step-id$="${id}"]`);
    const ticked = async (id) => (await step(id).getAttribute('aria-checked')) === 'true';
    const open = async () => {
      await runCommand(page, 'Session Ledger: Get started');
      await box.getByText('Get started with Session Ledger').first().waitFor({ state: 'visible', timeout: 30_000 });
      for (const id of WALKTHROUGH_STEPS) await step(id).waitFor({ state: 'attached', timeout: 15_000 });
    };
    await open();
    const before = {};
    for (const id of WALKTHROUGH_STEPS) before[id] = await ticked(id);
    console.log(`      (ticked when opened: ${JSON.stringify(before)})`);
    // the fixture has the state files and a live Claude Code session: those two steps are done already
    await waitUntil('the state-file step ticked (the files exist)', () => ticked('stateFile'), 15_000);
    await waitUntil('the meter step ticked (the meter follows the session)', () => ticked('meter'), 15_000);
    // hooks: none in the fixture; the step's own button installs them (three choices, the preview, Install),
    // with the status line relay and the reminder: the relay's own script comes from the installed .vsix
    assert.equal(before.hooks, false, 'no hooks installed yet');
    await step('hooks').click();
    // VS Code focuses a step it expands once its slide transition ends (~250 ms); a quick pick opened
    // before that loses the focus to the step and closes. A user is slower: wait for that focus too.
    await waitUntil(
      'the hooks step expanded and focused',
      () =>
        step('hooks').evaluate((el) => el.getAttribute('aria-expanded') === 'true' && document.activeElement === el),
      10_000,
    );
    await box.getByRole('button', { name: 'Install guard hooks' }).first().click();
    // four questions, each under the command's title with its step
    await pickStep(page, 'Install guard hooks (1/4)', /^Claude Code\s*\.claude\/settings\.json/);
    await pickStep(page, 'Install guard hooks (2/4)', /^\.claude\/settings\.json/);
    await pickStep(page, 'Install guard hooks (3/4)', /^Hooks and Claude Code's status line relay/);
    await pickStep(page, 'Install guard hooks (4/4)', /^Also remind the agent at the context marks/);
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    // the dialog says every change, as the CLI's dry run does: both scripts, the settings, the .gitignore lines
    const said = await dialog.innerText();
    for (const change of [
      /Would write \.claude\/hooks\/session-ledger\.cjs/,
      /Would write \.claude\/hooks\/session-ledger-statusline\.cjs/,
      /Would add hooks\.PreCompact [^]*? to \.claude\/settings\.json/,
      // the dialog's HTML shows the two spaces between the lines as one
      /Would add to \.gitignore [^]*?\.claude\/log\/\s+\.claude\/session-ledger\//,
    ])
      assert.match(said, change, 'the install dialog says the change');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await waitUntil('.claude/settings.json written', () => existsSync(join(ws, '.claude', 'settings.json')), 15_000);
    const statusline = join(ws, '.claude', 'hooks', 'session-ledger-statusline.cjs');
    await waitUntil("the status line relay's script installed from the .vsix", () => existsSync(statusline), 15_000);
    const settings = JSON.parse(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'));
    assert.match(
      settings.statusLine?.command ?? '',
      /session-ledger-statusline\.cjs" statusline/,
      'the relay is wired',
    );
    assert.ok(Array.isArray(settings.hooks?.UserPromptSubmit), 'the reminder is wired');
    await open();
    await waitUntil('the hooks step ticked by the settings written', () => ticked('hooks'), 15_000);
    // the first checkpoint: a marker on disk ticks it, whoever wrote it (an earlier part of this run may have)
    if (markers(ws).length === 0) {
      assert.equal(await ticked('checkpoint'), false, 'no checkpoint yet');
      await step('checkpoint').click();
      await box.getByRole('button', { name: 'Checkpoint now' }).first().click();
      // with manual items open, Checkpoint now opens the checklist on them: tick them, then write the marker
      const f = checklist(page);
      await waitUntil(
        'the marker or the checklist',
        async () =>
          markers(ws).length > 0 ||
          (await f
            .locator('#overall')
            .isVisible()
            .catch(() => false)),
        30_000,
      );
      const boxes = f.locator('input[type="checkbox"][data-manual]:not(:checked)');
      while ((await boxes.count()) > 0) {
        await boxes.first().click();
        await page.waitForTimeout(300);
      }
      if (markers(ws).length === 0) await f.locator('#write-marker').click();
      await waitUntil('the checkpoint marker on disk', () => markers(ws).length > 0, 15_000);
      await open();
    }
    await waitUntil('the checkpoint step ticked by the marker', () => ticked('checkpoint'), 15_000);
    for (const id of WALKTHROUGH_STEPS) assert.equal(await ticked(id), true, `${id} ticked`);
    // for the screenshot: no toasts, no panel, the walkthrough on its first step
    await clearToasts(page);
    await runCommand(page, 'View: Hide Panel').catch(() => {});
    await open();
    await step('stateFile').click();
    await page.mouse.move(5, 5);
    // the step's media (media/walkthrough/state-file.md, the systems' table) is drawn in a webview of its own
    await waitUntil(
      "the state-file step's table beside the steps",
      async () => {
        for (const fr of page.frames()) {
          const drawn = await fr
            .evaluate(() => {
              const cell = [...document.querySelectorAll('th')].find((th) => th.textContent === 'Home file');
              return !!cell && cell.getBoundingClientRect().width > 0;
            })
            .catch(() => false);
          if (drawn) return true;
        }
        return false;
      },
      20_000,
    );
    await page.waitForTimeout(800);
    await shot('walkthrough.png');
  });
}

/**
 * The installed .vsix's details page (Extensions view → Session Ledger): the README renders and every
 * image in it loads. VS Code's details page takes images only from https: (its CSP), and vsce requires
 * https too, so the README names its screenshot by its GitHub address (package.json's repository).
 * This machine has no network: the browser's requests to that address are answered with the
 * repository's own file — the file the address names once the repository is public.
 */
export async function detailsPageTests({ page, test, repo }) {
  await test("the installed .vsix's details page shows its README and every image in it (GitHub addresses answered from the repository's files)", async () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    const base = `${pkg.repository.url.replace(/\.git$/, '')}/raw/HEAD/`;
    const served = [];
    await page.context().route(`${base}**`, (route) => {
      const rel = decodeURIComponent(route.request().url().slice(base.length));
      served.push(rel);
      return route.fulfill({ path: join(repo, rel) });
    });
    try {
      // code-server's palette has no 'Extensions: Show Installed Extensions': the Extensions view, searched
      // for the installed extension, as a user finds it.
      await runCommand(page, 'View: Show Extensions');
      const search = page.locator('.part.sidebar .extensions-viewlet .suggest-input-container .monaco-editor');
      await search.waitFor({ state: 'visible', timeout: 30_000 });
      await search.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('@installed session-ledger');
      const item = page
        .locator('.part.sidebar .extensions-viewlet .monaco-list-row')
        .filter({ hasText: 'Session Ledger' })
        .first();
      await item.waitFor({ state: 'visible', timeout: 30_000 });
      await item.click();
      await page.locator('.extension-editor').waitFor({ state: 'visible', timeout: 30_000 });
      // the README is rendered into a webview: find its frame by its title, then wait for every image
      let images = null;
      await waitUntil(
        'the README frame with its images loaded',
        async () => {
          for (const f of page.frames()) {
            const got = await f
              .evaluate(() => {
                if (
                  !document.querySelector('h1') ||
                  !/Session Ledger/.test(document.querySelector('h1').textContent || '')
                )
                  return null;
                return [...document.images].map((img) => ({
                  src: img.getAttribute('src'),
                  ok: img.complete && img.naturalWidth > 0,
                }));
              })
              .catch(() => null);
            if (got && got.length && got.every((x) => x.ok)) {
              images = got;
              return true;
            }
            if (got) images = got;
          }
          return false;
        },
        60_000,
      ).catch(() => {
        throw new Error(
          `README images on the details page: ${JSON.stringify(images)}; served: ${JSON.stringify(served)}`,
        );
      });
      const inReadme = [...readFileSync(join(repo, 'README.md'), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map(
        (m) => m[1],
      );
      assert.deepEqual(
        images.map((x) => x.src),
        inReadme,
      );
      // the icon comes from the .vsix itself (the header's one <img>; other parts of it carry an `icon` class too)
      const icon = page.locator('.extension-editor .header img.icon').first();
      let seen = null;
      await waitUntil(
        'the extension icon loaded',
        async () => {
          seen = await icon
            .evaluate((img) => ({ src: img.src, complete: img.complete, width: img.naturalWidth }))
            .catch((e) => String(e).slice(0, 200));
          return typeof seen === 'object' && seen.complete && seen.width > 0;
        },
        30_000,
      ).catch((e) => {
        throw new Error(`${e.message}: ${JSON.stringify(seen)}`);
      });
    } finally {
      await page.context().unroute(`${base}**`);
      // the details page is an editor with its own webview: closed, so the parts after this one find only theirs
      if (await page.locator('.extension-editor').isVisible()) {
        await runCommand(page, 'View: Close Editor');
        await page.locator('.extension-editor').waitFor({ state: 'hidden', timeout: 10_000 });
      }
      // and the sidebar shows the Session Ledger view again, as before this test
      await showView(page);
    }
  });
}

/**
 * Install a .vsix through the running workbench ("Extensions: Install from VSIX...", its simple file
 * dialog filled with the path), as a user does; resolves once the workbench says it is installed.
 */
export async function installVsixFromUi(page, vsix) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  // A dialog that loses the focus to a view finishing its own start (or that rewrites the typed path
  // as it completes it) is opened again, as a user would.
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(page, 'Extensions: Install from VSIX...');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      // the dialog fills in its folder a moment after it opens: wait for that, then replace it
      await waitUntil("the file dialog's path", async () => (await input.inputValue()).startsWith('/'), 10_000);
      await input.fill(vsix);
      await waitUntil(
        'the typed path to stay',
        async () => (await input.isVisible()) && (await input.inputValue()) === vsix,
        5_000,
      );
      await page
        .locator('.quick-input-widget')
        .getByRole('button', { name: 'Install', exact: true })
        .click({ timeout: 10_000 });
      // The dialog closes once it took the file; one that filled in its own folder over the typed path
      // just as Install was pressed stays open on that folder: it is opened again.
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
      break;
    } catch (err) {
      // On a loaded machine (CI's linter beside it) the dialog rewrote the path three times in a row once.
      if (attempt === 5) throw err;
      console.log(
        `      (Install from VSIX, attempt ${attempt}: ${String(err?.message ?? err).split('\n')[0]}; again)`,
      );
      await page.keyboard.press('Escape');
      // The dialog gone before it is opened again, so the next attempt does not type into the closing one.
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
    }
  }
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Completed installing/ });
  await toast.first().waitFor({ state: 'visible', timeout: 60_000 });
}

/**
 * A window whose display language is Japanese (code-server --locale ja and a Japanese language pack
 * that translates nothing of the workbench): the workbench stays English; the extension's manifest
 * strings and its l10n bundle are Japanese.
 */
export async function japaneseTests({ page, test, shots, nlsJa, bundleJa }) {
  await test("with VS Code in Japanese, the checklist and the tree show the checks' messages in Japanese", async () => {
    const lang = await page.evaluate(() => globalThis._VSCODE_NLS_LANGUAGE);
    assert.equal(lang, 'ja', "VS Code's display language");
    // the manifest's strings (package.nls.ja.json): the palette lists the commands in Japanese
    const jaTitle = `${nlsJa['command.category']}: ${nlsJa['command.openChecklist.title']}`;
    const rows = await paletteRows(page, nlsJa['command.category']);
    console.log(`      (palette rows: ${JSON.stringify(rows.slice(0, 4))})`);
    assert.ok(rows.includes(jaTitle), `"${jaTitle}" in the palette: ${JSON.stringify(rows)}`);
    await runCommand(page, jaTitle);
    const f = checklist(page);
    await f.locator('#overall').waitFor({ state: 'visible', timeout: 30_000 });
    const row = f.locator('section.system[data-system="S4"] .check[data-check-id="compaction"]');
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    const text = await row.innerText();
    console.log(`      (S4 compaction row: ${JSON.stringify(text.slice(0, 240))})`);
    assert.ok(text.includes(bundleJa.warning), `the status word "${bundleJa.warning}" in ${JSON.stringify(text)}`);
    // the check's own message, rendered from its id and parameters through the ja bundle
    assert.match(
      text,
      /「## Current Feature」ブロックが \d+ 個あります（行 .*）: コンパクト化では最新のもの（行 \d+）だけが残ります。/,
    );
    assert.doesNotMatch(text, /compaction keeps only the newest/);
    // the tool's own words inside a message are Japanese too: a template part's name, around the file's own label
    const template = await f
      .locator('section.system[data-system="S3"] .check[data-check-id="template"]')
      .first()
      .innerText();
    assert.match(template, /2026-12-01 の Log エントリの Done/, template);
    assert.doesNotMatch(template, /in the Log entry of/, template);
    // an information-level finding says 情報 alone, as the tree and the Problems panel call it (not 警告 · 情報)
    const info = f.locator('section.system[data-system="S0"] .check[data-check-id="unconfirmed"] .sev').first();
    assert.equal((await info.innerText()).trim(), bundleJa.info);
    assert.equal((await f.locator('#write-marker').innerText()).trim(), bundleJa['Write marker & copy resume prompt']);
    // 再チェック says when it read the folder again and that nothing changed, in Japanese.
    await f.locator('#refresh').click();
    const rechecked = f.locator('#rechecked');
    await rechecked.waitFor({ state: 'visible', timeout: 15_000 });
    const [head, tail] = bundleJa['Checked again at {0}: nothing changed.'].split('{0}');
    assert.match(await rechecked.innerText(), new RegExp(`^${esc(head)}\\d\\d:\\d\\d:\\d\\d${esc(tail)}$`));
    // in view for the screenshot below, beside the tree
    await row.scrollIntoViewIfNeeded();
    // the tree's finding row under the S4 root: the same message in Japanese
    await showView(page);
    await collapseAll(page);
    await expand(page.getByRole('treeitem', { name: /^S4 \S.* — / }));
    const finding = page.getByRole('treeitem', {
      name: new RegExp(`^${bundleJa.Warning}: S4 compaction: .*コンパクト化では最新のもの`),
    });
    await finding.first().waitFor({ state: 'visible', timeout: 15_000 });
    // the next action's row under it, called as every surface calls it
    await page
      .getByRole('treeitem', { name: new RegExp(`^${bundleJa['Next action: {0}'].replace('{0}', '')}Add expireHolds`) })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    // The tree's first row, the session's manual items: its label whole at the default sidebar width.
    await collapseAll(page);
    const session = page.getByRole('treeitem', {
      name: new RegExp(`^${esc(bundleJa['This session (every system)'])}: `),
    });
    await session.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await session.first().getAttribute('data-index'), '0');
    assert.equal(await labelCut(session.first()), null, "the session's row label is not cut (ja)");
    await expand(page.getByRole('treeitem', { name: /^S4 \S.* — / }));
    await page.mouse.move(700, 400);
    await page.screenshot({ path: join(shots, 'tree-ja.png') });
  });
}

/** Copy the screenshots a run made into media/screenshots/ (for the README). */
export function publishScreenshots(from, to) {
  mkdirSync(to, { recursive: true });
  for (const n of readdirSync(from).filter((x) => x.endsWith('.png'))) copyFileSync(join(from, n), join(to, n));
}
