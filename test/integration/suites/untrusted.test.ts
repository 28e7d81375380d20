import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, markers, sleep, workspaceRoot } from '../helpers';

const WRITE_COMMANDS = [
  'checkpointNow',
  'installHooks',
  'removeHooks',
  'createStarterFile',
  'compactAgentState',
  'askAgentToCheckpoint',
].map((c) => `sessionLedger.${c}`);

describe('untrusted workspace (Restricted Mode)', () => {
  it('runs with the workspace untrusted', async () => {
    const api = await getApi();
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(api.trusted(), false);
  });

  it('offers no write command in the palette or the menus: each is shown only when isWorkspaceTrusted', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    for (const [menu, entries] of Object.entries(pkg.contributes.menus)) {
      for (const e of entries) {
        if (!WRITE_COMMANDS.includes(e.command)) continue;
        assert.ok(
          /(^|&&\s*)isWorkspaceTrusted(\s*&&|$)/.test(e.when ?? ''),
          `${menu}: ${e.command} has "isWorkspaceTrusted" in its when clause (got ${e.when})`,
        );
      }
    }
    const palette = pkg.contributes.menus.commandPalette ?? [];
    for (const id of WRITE_COMMANDS)
      assert.ok(
        palette.some((e) => e.command === id),
        `${id} has a commandPalette entry (a when clause)`,
      );
  });

  it('refuses write commands invoked anyway: no marker, no hooks, no starter file', async () => {
    const root = workspaceRoot();
    await vscode.env.clipboard.writeText('untouched');
    for (const id of ['sessionLedger.checkpointNow', 'sessionLedger.installHooks']) {
      void vscode.commands.executeCommand(id, { fromChecklist: true });
    }
    await sleep(3000);
    assert.deepEqual(markers(root), [], 'no checkpoint marker');
    assert.equal(existsSync(join(root, '.claude', 'settings.json')), false, 'no .claude/settings.json');
    assert.equal(existsSync(join(root, '.claude', 'settings.local.json')), false, 'no .claude/settings.local.json');
    assert.equal(await vscode.env.clipboard.readText(), 'untouched', 'the clipboard is untouched');
  });

  it('spawns no process: git is not run, so every check that needs it is skipped (the trusted run of this fixture passes them)', async () => {
    const api = await getApi();
    const report = api.report();
    assert.ok(report && report.systems.length > 0, 'the fixture is read in Restricted Mode');
    const gitChecks = report.systems.flatMap((s) =>
      s.checks.filter((c) => c.id === 'fresh' || c.id === 'work-explained'),
    );
    assert.ok(gitChecks.length > 0, 'the fixture has git-based checks');
    for (const c of gitChecks) {
      assert.equal(c.status, 'skipped', `${c.system} ${c.id}: ${c.message}`);
      // The fixture is a git repository: the checks say why git gave nothing, not "Not a git repository".
      assert.match(c.message, /^No git facts: git does not run in Restricted Mode\./, `${c.system} ${c.id}`);
    }
    // Without git there is nothing to wait for: the first report shown was the full one.
    assert.equal(api.firstShown()?.gitPending, undefined);
  });
});

describe('untrusted workspace: git', () => {
  it('a commit made with git reads nothing again: the git watchers start only once the workspace is trusted, and the checks that need git stay skipped', async function () {
    this.timeout(60_000);
    const api = await getApi();
    const root = workspaceRoot();
    const run = (...args: string[]) =>
      execFileSync(
        'git',
        ['-c', 'user.name=Ada Librarian', '-c', 'user.email=ada@shelf.invalid', '-c', 'commit.gpgsign=false', ...args],
        {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ).trim();
    await sleep(3000);
    const reads = api.scans();
    const file = join(root, 'src', 'overdue.ts');
    const text = readFileSync(file, 'utf8');
    const before = run('rev-parse', 'HEAD');
    appendFileSync(file, '// one more line\n');
    run('commit', '-q', '-m', 'overdue: one more line', '--', 'src/overdue.ts');
    try {
      await sleep(5000);
      assert.equal(api.scans(), reads, 'no read after the commit');
      for (const s of api.report()!.systems)
        for (const c of s.checks.filter((x) => x.id === 'fresh' || x.id === 'work-explained' || x.id === 'branch-head'))
          assert.equal(c.status, 'skipped', `${s.id} ${c.id}: ${c.message}`);
    } finally {
      writeFileSync(file, text);
      run('reset', '-q', '--soft', before);
      run('reset', '-q', '--', 'src/overdue.ts');
    }
  });
});

describe('untrusted workspace: findings without fixes', () => {
  it('shows the findings in the Problems panel and offers no quick fix', async () => {
    const api = await getApi();
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.agents', 'STATE.md');
    const d = vscode.languages
      .getDiagnostics(uri)
      .find((x) => x.source === 'Session Ledger' && typeof x.code === 'object' && x.code.value === 'compaction');
    assert.ok(d, `the compaction warning is in the Problems panel (got ${JSON.stringify(api.diagnostics())})`);
    await vscode.workspace.openTextDocument(uri);
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range)) ??
      [];
    assert.deepEqual(
      actions.filter((a) => /Compact/.test(a.title)).map((a) => a.title),
      [],
      'no quick fix in Restricted Mode',
    );
  });
});
