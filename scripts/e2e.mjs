#!/usr/bin/env node
// Real VS Code tests: code-server 4.100.3 (installed by scripts/setup-e2e.sh) + Debian Chromium.
//   node scripts/e2e.mjs [--only harness,integration,untrusted,ui,claude,terminals] [--parts main,native,ja] [--keep] [--no-build] [--screenshots]
// Phases:
//   harness      code-server answers /healthz and the workbench loads in Chromium (only with --only)
//   integration  mocha suites inside the Node extension host (test/integration), trusted folder
//   untrusted    the same runner on an untrusted folder (test/integration/untrusted)
//   ui           Playwright UI tests (test/e2e); --parts picks its groups: main (view, checklist, status
//                bar), native (Problems, quick fix, walkthrough), ja (a window in Japanese), a11y (axe-core
//                in the checklist in three themes, the checklist by keyboard alone, the status item's label)
//   claude       the real Claude Code in the integrated terminal feeds the status bar (test/e2e/claude.mjs)
//   terminals    two terminals of one name, each running the real Claude Code: each active terminal
//                shows its own session in the status bar (test/e2e/terminals.mjs)
// Each run's state lives in its own folder under /tmp/slr (kept with --keep or on failure).
// --screenshots (or SESSION_LEDGER_SCREENSHOTS=1) copies the UI tests' screenshots to media/screenshots/.
// Closing line: "N passed, N failed".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO,
  CHROMIUM,
  startCodeServer,
  makeRunDir,
  launchBrowser,
  workbenchUrl,
  testPayload,
  removeRunDir,
  codeServerEntry,
  readJson,
  installExtension,
} from './lib/code-server.mjs';
import { prepareWorkspace, FIXTURE, integrationFixture as fixture } from './lib/workspace.mjs';
import { buildIntegration, INTEGRATION_OUT as OUT } from './lib/build.mjs';

const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = arg('--only')?.split(',');
const keep = argv.includes('--keep') || !!process.env.SESSION_LEDGER_KEEP;
const want = (phase) => !only || only.includes(phase);
// --parts main,native,ja: which groups of the ui phase run (all by default; each needs no other)
const parts = arg('--parts')?.split(',');
const part = (p) => !parts || parts.includes(p);

const results = []; // { phase, name, ok, ms, error }
const t0 = Date.now();
const log = (...a) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

function record(phase, name, ok, ms, error) {
  results.push({ phase, name, ok, ms, error });
  console.log(
    `  ${ok ? '✔' : '✘'} ${phase}: ${name} (${ms} ms)${ok ? '' : `\n      ${String(error).split('\n').join('\n      ')}`}`,
  );
}

async function phaseHarness() {
  const run = makeRunDir('harness');
  const ws = join(run, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'hello.md'), '# hello\n');
  const started = Date.now();
  const server = await startCodeServer({ runDir: run, workspace: ws });
  let ok = false;
  let ctx;
  try {
    record('harness', `code-server answers /healthz on ${server.url}`, true, server.healthzMs);
    const tw = Date.now();
    ctx = await launchBrowser(run);
    const page = ctx.pages()[0] || (await ctx.newPage());
    await page.goto(workbenchUrl(server, { folder: ws }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.getByRole('treeitem', { name: 'hello.md' }).waitFor({ timeout: 60_000 });
    record('harness', 'the workbench loads in Chromium and the explorer lists the folder', true, Date.now() - tw);
    ok = true;
  } catch (e) {
    record('harness', 'the workbench loads in Chromium', false, Date.now() - started, e?.stack || e);
  } finally {
    await ctx?.close().catch(() => {});
    await server.stop();
  }
  if (ok && !keep) removeRunDir(run);
  else log('run folder kept:', run);
}

/**
 * Run one extensionTestsPath bundle inside the real extension host: open the workbench with the
 * test payload, collect codeAutomationLog lines, wait for codeAutomationExit.
 */
async function runExtensionTests(phase, entry, { trust }) {
  const run = makeRunDir(phase);
  const { ws, claude } = fixture(run);
  const resultsFile = join(run, 'results.json');
  const started = Date.now();
  const server = await startCodeServer({
    runDir: run,
    trust,
    env: {
      CLAUDE_CONFIG_DIR: claude.home,
      CODEX_HOME: join(run, 'codex'),
      SESSION_LEDGER_E2E_RESULTS: resultsFile,
      SESSION_LEDGER_E2E_SESSION_ID: claude.sessionId,
      SESSION_LEDGER_E2E_TRANSCRIPT: claude.transcript,
    },
  });
  log(`${phase}: code-server up in ${server.healthzMs} ms (${server.url}), workspace ${ws}`);
  let ctx;
  let ok = false;
  try {
    ctx = await launchBrowser(run);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = ctx.pages()[0] || (await ctx.newPage());
    const logs = [];
    let resolveExit;
    const exited = new Promise((r) => {
      resolveExit = r;
    });
    await page.exposeFunction('codeAutomationLog', (level, args) => {
      const line = (Array.isArray(args) ? args : [args])
        .map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
        .join(' ');
      logs.push(line);
      if (process.env.SESSION_LEDGER_E2E_VERBOSE) console.log(`    [host] ${line}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    const payload = testPayload(server, { extensionDevelopmentPath: REPO, extensionTestsPath: join(OUT, entry) });
    // a shared, loaded machine can take longer than Playwright's default 30 s to load the workbench
    await page.goto(workbenchUrl(server, { folder: ws, payload }), { timeout: 120_000 });
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 240_000))]);
    writeFileSync(join(run, 'host.log'), logs.join('\n'));
    const res = readJson(resultsFile, null);
    if (!res) {
      record(
        phase,
        `extension tests ran (${entry})`,
        false,
        Date.now() - started,
        `no results (exit ${code}); last host lines:\n${logs.slice(-30).join('\n')}`,
      );
    } else {
      for (const r of res.results) record(phase, r.title, r.ok, r.ms, r.error);
      ok = code === 0 && res.failed === 0 && res.results.length > 0;
      if (code !== 0 && res.failed === 0)
        record(phase, 'the extension host reported exit 0', false, 0, `codeAutomationExit(${code})`);
    }
    if (!trust) ok = (await untrustedPalette(page, phase)) && ok;
    if (!trust) {
      // The test host has exited with its tests: the checklist is looked at in a window of its own, the
      // extension loaded as a user has it (no tests), the folder still untrusted.
      const user = await ctx.newPage();
      const dev = testPayload(server, { extensionDevelopmentPath: REPO });
      await user.goto(workbenchUrl(server, { folder: ws, payload: dev }), { timeout: 120_000 });
      ok = (await untrustedChecklist(user, phase)) && ok;
      await user.screenshot({ path: join(run, 'checklist.png') }).catch(() => {});
    }
    await page.screenshot({ path: join(run, 'final.png') }).catch(() => {});
  } catch (e) {
    record(phase, 'extension tests', false, Date.now() - started, e?.stack || e);
  } finally {
    await ctx?.close().catch(() => {});
    await server.stop();
  }
  if (ok && !keep) removeRunDir(run);
  else log(`${phase}: run folder kept: ${run}`);
}

/** In Restricted Mode the palette lists the read commands and none of the write commands. */
async function untrustedPalette(page, phase) {
  const t = Date.now();
  const name = 'the command palette in Restricted Mode offers the read commands and no write command';
  try {
    const { paletteRows } = await import('../test/e2e/ui.mjs');
    await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
    const rows = await paletteRows(page, 'Session Ledger:');
    for (const r of [
      'Session Ledger: Open checklist',
      'Session Ledger: Copy resume prompt',
      'Session Ledger: Refresh',
    ]) {
      if (!rows.includes(r)) throw new Error(`"${r}" missing from the palette: ${JSON.stringify(rows)}`);
    }
    const write = [
      'Checkpoint now',
      'Install guard hooks (Claude Code, Codex CLI)',
      'Remove guard hooks (Claude Code, Codex CLI)',
      'Create starter file',
      'Compact S4 checkpointing (.agents/STATE.md)',
      'Ask the agent to checkpoint',
    ];
    const shown = rows.filter((r) => write.some((w) => r === `Session Ledger: ${w}`));
    if (shown.length) throw new Error(`write commands offered in Restricted Mode: ${shown.join(', ')}`);
    record(phase, name, true, Date.now() - t);
    return true;
  } catch (e) {
    record(phase, name, false, Date.now() - t, e?.stack || e);
    return false;
  }
}

/** In Restricted Mode the checklist says what holds and offers VS Code's trust editor, which its button opens. */
async function untrustedChecklist(page, phase) {
  const t = Date.now();
  const name =
    "the checklist in Restricted Mode says it writes nothing and its Manage Workspace Trust button opens VS Code's trust editor";
  try {
    const { checklist, runCommand, waitUntil } = await import('../test/e2e/ui.mjs');
    await runCommand(page, 'Session Ledger: Open checklist');
    const note = checklist(page).locator('#notes #untrusted');
    await note.waitFor({ timeout: 30_000 });
    const said = (await note.innerText()).replace(/\s+/g, ' ').trim();
    if (!said.startsWith('Restricted Mode: Session Ledger shows the checks but writes nothing.'))
      throw new Error(`the note says: ${said}`);
    await note.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    await waitUntil(
      'the Workspace Trust editor open',
      async () => (await page.locator('.tabs-container .tab', { hasText: 'Workspace Trust' }).count()) > 0,
    );
    record(phase, name, true, Date.now() - t);
    return true;
  } catch (e) {
    record(phase, name, false, Date.now() - t, e?.stack || e);
    return false;
  }
}

/**
 * A stub language pack for Japanese (ours, written here): it declares `ja` with an empty
 * translation file, so the workbench stays English while VS Code's display language becomes ja.
 * Returns the .vsix; the test installs it through the running workbench (see japaneseWindow).
 */
function buildJapaneseStub(runDir) {
  const dir = join(runDir, 'ja-stub');
  mkdirSync(join(dir, 'translations'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'ja-stub',
        publisher: 'session-ledger-tests',
        displayName: 'Japanese stub (tests)',
        version: '0.0.1',
        license: 'MIT',
        repository: { type: 'git', url: 'https://example.invalid/ja-stub.git' },
        engines: { vscode: '^1.100.0' },
        categories: ['Language Packs'],
        contributes: {
          localizations: [
            {
              languageId: 'ja',
              languageName: 'Japanese',
              localizedLanguageName: '日本語',
              translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
            },
          ],
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(join(dir, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(dir, 'README.md'), '# Japanese stub language pack for tests\n');
  const vsix = join(runDir, 'ja-stub.vsix');
  execFileSync(
    process.execPath,
    [
      join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--allow-missing-repository',
      '--skip-license',
      '-o',
      vsix,
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return vsix;
}

/** Build the .vsix exactly as `npm run package` does. */
function packageVsix() {
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const vsix = join(REPO, 'dist', 'session-ledger.vsix');
  if (!existsSync(vsix)) throw new Error('npm run package made no dist/session-ledger.vsix');
  return vsix;
}

/** test(name, fn) for a phase on one page: records the result; a failure adds a screenshot to the run folder. */
function pageTest(phase, run, page, onFail) {
  let n = 0;
  return async (name, fn) => {
    const t = Date.now();
    try {
      await fn();
      record(phase, name, true, Date.now() - t);
    } catch (e) {
      onFail();
      record(phase, name, false, Date.now() - t, e?.stack || e);
      await page.screenshot({ path: join(run, `failure-${++n}.png`) }).catch(() => {});
    }
  };
}

/** Playwright UI tests (test/e2e/ui.mjs) with the packaged extension installed into code-server. */
async function phaseUi() {
  const phase = 'ui';
  const run = makeRunDir(phase);
  const started = Date.now();
  let vsix;
  try {
    packageVsixOnce();
    vsix = join(REPO, 'dist', 'session-ledger.vsix');
    const out = installExtension(vsix, join(run, 'extensions'), run);
    if (!/successfully installed/i.test(out)) throw new Error(`install: ${out}`);
    record(phase, 'npm run package builds the .vsix and code-server installs it', true, Date.now() - started);
  } catch (e) {
    record(
      phase,
      'npm run package builds the .vsix and code-server installs it',
      false,
      Date.now() - started,
      e?.stack || e,
    );
    log(`${phase}: run folder kept: ${run}`);
    return;
  }
  const { ws, claude } = fixture(run);
  // the English window, unless only the Japanese one was asked for
  const english = part('main') || part('native') || part('a11y');
  const server = english
    ? await startCodeServer({
        runDir: run,
        env: { CLAUDE_CONFIG_DIR: claude.home, CODEX_HOME: join(run, 'codex') },
      })
    : null;
  if (server) log(`${phase}: code-server up in ${server.healthzMs} ms (${server.url}), workspace ${ws}`);
  const shots = join(run, 'screenshots');
  mkdirSync(shots, { recursive: true });
  let ctx;
  let failed = 0;
  try {
    const { uiTests, nativeTests, japaneseTests, installVsixFromUi, publishScreenshots, detailsPageTests } =
      await import('../test/e2e/ui.mjs');
    if (server) {
      ctx = await launchBrowser(run);
      await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = ctx.pages()[0] || (await ctx.newPage());
      const workbench = async () => {
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await page
          .locator('.part.activitybar')
          .getByRole('tab', { name: 'Session Ledger', exact: true })
          .waitFor({ state: 'visible', timeout: 60_000 });
        // the extension is active once its status bar item shows
        await page
          .locator(`[id="session-ledger.session-ledger.sessionLedger.context"]`)
          .waitFor({ state: 'visible', timeout: 60_000 });
      };
      await page.goto(workbenchUrl(server, { folder: ws }), { timeout: 120_000 });
      await workbench();
      const test = pageTest(phase, run, page, () => failed++);
      if (part('main')) await uiTests({ page, ws, claude, shots, test, workbench });
      if (part('main')) await detailsPageTests({ page, test, repo: REPO });
      if (part('native')) await nativeTests({ page, ws, shots, test });
      if (part('a11y')) await (await import('../test/e2e/a11y.mjs')).a11yTests({ page, ws, claude, shots, test });
      await ctx.close().catch(() => {});
      ctx = undefined;
      await server.stop();
    }
    if (part('ja')) {
      // The same extension in a window whose display language is Japanese. code-server --locale ja
      // only takes effect when a Japanese language pack is listed in the user data's
      // languagepacks.json; the server writes that list when it installs a pack itself (a CLI
      // --install-extension does not), and none can be downloaded here. So: our stub pack, installed
      // through the running workbench as a user installs one, then a reload.
      const jaRun = join(run, 'ja');
      mkdirSync(jaRun);
      const jaFix = fixture(jaRun);
      const stub = buildJapaneseStub(jaRun);
      const ja = await startCodeServer({
        runDir: jaRun,
        extensionsDir: join(run, 'extensions'),
        locale: 'ja',
        env: { CLAUDE_CONFIG_DIR: jaFix.claude.home, CODEX_HOME: join(jaRun, 'codex') },
      });
      try {
        ctx = await launchBrowser(jaRun);
        const jaPage = ctx.pages()[0] || (await ctx.newPage());
        const jaTest = pageTest(phase, jaRun, jaPage, () => failed++);
        const jaWorkbench = async () => {
          await jaPage.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
          await jaPage
            .locator(`[id="session-ledger.session-ledger.sessionLedger.context"]`)
            .waitFor({ state: 'visible', timeout: 60_000 });
        };
        await jaPage.goto(workbenchUrl(ja, { folder: jaFix.ws }), { timeout: 120_000 });
        await jaWorkbench();
        await jaTest(
          "a Japanese language pack installed from the workbench makes VS Code's display language ja after a reload",
          async () => {
            await installVsixFromUi(jaPage, stub);
            const packs = readJson(join(ja.dirs.userData, 'languagepacks.json'), {});
            if (!packs.ja)
              throw new Error(`the server listed no ja pack in languagepacks.json: ${JSON.stringify(packs)}`);
            await jaPage.reload();
            await jaWorkbench();
            const lang = await jaPage.evaluate(() => globalThis._VSCODE_NLS_LANGUAGE);
            if (lang !== 'ja')
              throw new Error(`the workbench's NLS language is ${JSON.stringify(lang)} after the reload, not "ja"`);
          },
        );
        const nlsJa = readJson(join(REPO, 'package.nls.ja.json'), {});
        const bundleJa = readJson(join(REPO, 'l10n', 'bundle.l10n.ja.json'), {});
        await japaneseTests({ page: jaPage, test: jaTest, shots, nlsJa, bundleJa });
      } finally {
        await ja.stop();
      }
    }
    if (!failed && (argv.includes('--screenshots') || process.env.SESSION_LEDGER_SCREENSHOTS)) {
      publishScreenshots(shots, join(REPO, 'media', 'screenshots'));
      log('screenshots copied to media/screenshots/');
    }
  } catch (e) {
    failed++;
    record(phase, 'ui tests', false, Date.now() - started, e?.stack || e);
  } finally {
    await ctx?.close().catch(() => {});
    await server?.stop();
  }
  if (!failed && !keep) removeRunDir(run);
  else log(`${phase}: run folder kept: ${run} (screenshots in ${shots})`);
}

/**
 * The extension fed by a real Claude Code session (test/e2e/claude.mjs; phase "terminals":
 * test/e2e/terminals.mjs): the packaged extension in code-server, the real client in its integrated
 * terminal(s) against the stand-in, one CLAUDE_CONFIG_DIR.
 */
async function phaseClaude(phase = 'claude') {
  // The folder's name shows in the shell's prompt, and the test sees its typing echoed by counting the
  // typed text on screen: a folder named after what it types ("claude") made a re-printed prompt count.
  const run = makeRunDir(phase === 'claude' ? 'client' : phase);
  const started = Date.now();
  const { ensureClaudeCode, claudeWorld } = await import('./lib/claude-code.mjs');
  const { startStandin } = await import('./lib/standin.mjs');
  let standin;
  let server;
  let ctx;
  let failed = 0;
  try {
    const bin = ensureClaudeCode({ log });
    packageVsixOnce();
    const out = installExtension(join(REPO, 'dist', 'session-ledger.vsix'), join(run, 'extensions'), run);
    if (!/successfully installed/i.test(out)) throw new Error(`install: ${out}`);
    standin = await startStandin();
    const world = claudeWorld(join(run, 'client'), { standinUrl: standin.url, bin });
    const ws = prepareWorkspace(FIXTURE, join(run, 'shelf'));
    world.trust(ws);
    // As a user sets it up: the guard hooks and the statusLine relay.
    execFileSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'hooks', 'install', '--statusline', '--root', ws], {
      stdio: 'pipe',
    });
    // The client's world for the terminal: its config dir, the stand-in, no network, its binary on PATH.
    const termEnv = {};
    for (const k of [
      'CLAUDE_CONFIG_DIR',
      'ANTHROPIC_BASE_URL',
      'ANTHROPIC_API_KEY',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
      'DISABLE_TELEMETRY',
      'DISABLE_AUTOUPDATER',
      'DISABLE_ERROR_REPORTING',
      'PATH',
    ])
      termEnv[k] = world.env[k];
    server = await startCodeServer({
      runDir: run,
      env: { ...termEnv, CODEX_HOME: join(run, 'codex') },
      settings: {
        'terminal.integrated.gpuAcceleration': 'off',
        'terminal.integrated.env.linux': termEnv,
        'terminal.integrated.defaultProfile.linux': 'bash',
      },
    });
    log(`${phase}: code-server up in ${server.healthzMs} ms (${server.url}), workspace ${ws}, stand-in ${standin.url}`);
    ctx = await launchBrowser(run);
    const page = ctx.pages()[0] || (await ctx.newPage());
    await page.goto(workbenchUrl(server, { folder: ws }), { timeout: 120_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    await page
      .locator('.part.activitybar')
      .getByRole('tab', { name: 'Session Ledger', exact: true })
      .waitFor({ state: 'visible', timeout: 120_000 });
    const tests =
      phase === 'terminals'
        ? (await import('../test/e2e/terminals.mjs')).terminalsTests
        : (await import('../test/e2e/claude.mjs')).claudeTests;
    const test = pageTest(phase, run, page, () => failed++);
    await tests({ page, ws, standin, test });
  } catch (e) {
    failed++;
    record(phase, 'the real Claude Code in the integrated terminal', false, Date.now() - started, e?.stack || e);
  } finally {
    await ctx?.close().catch(() => {});
    await server?.stop();
    await standin?.close();
  }
  if (!failed && !keep) removeRunDir(run);
  else log(`${phase}: run folder kept: ${run}`);
}

/** The languages of the extension's translations whose text needs a font of its own (Chromium draws boxes without). */
const FONT_LANGS = ['ja', 'ko'];

/** The languages of FONT_LANGS no installed font covers (fontconfig, as Chromium finds fonts). */
function languagesWithoutFont() {
  return FONT_LANGS.filter((lang) => {
    try {
      return execFileSync('fc-list', [`:lang=${lang}`, 'family'], { encoding: 'utf8' }).trim() === '';
    } catch {
      return true;
    }
  });
}

let packaged = false;
/** The .vsix, built once per run. */
function packageVsixOnce() {
  if (!packaged) packageVsix();
  packaged = true;
}

async function main() {
  let missing = null;
  try {
    codeServerEntry();
    // npm start installs code-server without Chromium; the tests need both
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);
  } catch (e) {
    missing = e.message.split(':')[0];
  }
  // Japanese and Korean text needs a font each, else Chromium draws boxes (the Japanese window's screenshots)
  const noFont = !missing && want('ui') && part('ja') ? languagesWithoutFont() : [];
  if (noFont.length) missing = `no font for ${noFont.map((l) => `:lang=${l}`).join(', ')} (fc-list)`;
  if (missing) {
    log(`${missing}: running scripts/setup-e2e.sh`);
    execFileSync('bash', [join(REPO, 'scripts', 'setup-e2e.sh')], { stdio: 'inherit' });
    codeServerEntry();
  }
  if (!argv.includes('--no-build')) {
    log('building (scripts/build.mjs)');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  }
  if (only?.includes('harness')) await phaseHarness(); // the other phases prove the harness too
  if (want('integration') || want('untrusted')) await buildIntegration();
  if (want('integration')) await runExtensionTests('integration', 'trusted.js', { trust: true });
  if (want('untrusted')) await runExtensionTests('untrusted', 'untrusted.js', { trust: false });
  if (want('ui')) await phaseUi();
  if (want('claude')) await phaseClaude();
  if (want('terminals')) await phaseClaude('terminals');
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (results.length === 0) {
    console.log('no e2e test ran');
    process.exit(1);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e?.stack || e);
  console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`);
  process.exit(1);
});
