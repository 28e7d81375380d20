import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, waitFor, workspaceRoot } from '../helpers';

const S0 = '.agents/session_ledger.md';
const S4 = '.agents/STATE.md';
const S1 = 'memory/session-handoff-LATEST.md';
const SIDECAR = 'memory/.session-handoff.sha256';

function diagnosticsOf(rel: string, code: string): vscode.Diagnostic[] {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, ...rel.split('/'));
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'Session Ledger' && typeof d.code === 'object' && d.code.value === code);
}

async function actionsAt(rel: string, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, ...rel.split('/'));
  // resolve every action (its edit is computed when the user picks it)
  return (
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      range,
      vscode.CodeActionKind.QuickFix.value,
      20,
    )) ?? []
  );
}

const abs = (rel: string) => join(workspaceRoot(), ...rel.split('/'));

/** `session-ledger <command> --root <fixture> …` of the extension's own build (dist/cli.js): its stdout. */
function cli(command: string, ...args: string[]): string {
  const bin = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
  return execFileSync(process.execPath, [bin, command, '--root', workspaceRoot(), ...args], {
    encoding: 'utf8',
  }).trim();
}

/**
 * The quick fix on `rel` for diagnostic `d` whose title is `title` (or starts with it, for `prefix`),
 * with the file open: a command `command` with its arguments, and no WorkspaceEdit (VS Code would
 * write `what` through a link).
 */
async function commandFix(
  rel: string,
  d: vscode.Diagnostic,
  title: string,
  match: 'exact' | 'prefix',
  command: string,
  what: string,
): Promise<vscode.Command> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(abs(rel))));
  // the diagnostic reaches the workbench's marker service a moment after the extension host has it
  const fix = await waitFor(
    `the quick fix "${title}"`,
    async () =>
      (await actionsAt(rel, d.range)).find((a) => (match === 'exact' ? a.title === title : a.title.startsWith(title))),
    20_000,
    500,
  );
  assert.equal(fix.edit, undefined, `no WorkspaceEdit: VS Code would write ${what} through a link`);
  assert.ok(fix.command, 'the fix runs a command');
  assert.equal(fix.command.command, command);
  return fix.command;
}

describe('quick fixes', () => {
  /** A folder beside the workspace, outside it, for a test's link to point into; removed after the test. */
  let outside: string | undefined;
  const outsideDir = () => (outside = mkdtempSync(join(dirname(workspaceRoot()), 'outside-')));
  afterEach(() => {
    if (outside) rmSync(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('S0 "_Last updated:_ to now": the placeholder becomes a diagnostic, the fix edits that line, and the finding disappears', async () => {
    await getApi();
    const file = join(workspaceRoot(), S0);
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace(/_Last updated: [^_]*_/, '_Last updated: <timestamp>_'));
    const [d] = await waitFor('the timestamp warning', () =>
      diagnosticsOf(S0, 'timestamp').length ? diagnosticsOf(S0, 'timestamp') : undefined,
    );
    assert.equal(d.range.start.line + 1, 3, 'on the _Last updated:_ line');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    // the diagnostic reaches the workbench's marker service a moment after the extension host has it
    const fix = await waitFor(
      'the quick fix with its edit',
      async () => (await actionsAt(S0, d.range)).find((a) => a.title === 'Set _Last updated:_ to now' && a.edit),
      20_000,
      500,
    );
    assert.ok(fix.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.lineAt(2).text, /^_Last updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ_$/);
    assert.equal(
      doc.getText().replace(/_Last updated: [^_]*_/, ''),
      before.replace(/_Last updated: [^_]*_/, ''),
      'nothing else changed',
    );
    await doc.save();
    await waitFor('the timestamp warning to disappear', () => diagnosticsOf(S0, 'timestamp').length === 0);
    // and the user can take it back
    await vscode.commands.executeCommand('undo');
    assert.match(doc.lineAt(2).text, /<timestamp>/);
    await vscode.commands.executeCommand('redo');
    await doc.save();
  });

  it('S4 compaction: the fix is a whole-file edit that needs confirmation (Refactor Preview) and keeps one block per kind', async () => {
    const [d] = diagnosticsOf(S4, 'compaction');
    assert.ok(d, 'the compaction warning');
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.agents', 'STATE.md'),
    );
    const fix = (await actionsAt(S4, d.range)).find((a) => a.title.startsWith('Compact .agents/STATE.md'));
    assert.ok(
      fix?.edit,
      `the compaction fix with its edit (got ${(await actionsAt(S4, d.range)).map((a) => a.title).join(' | ')})`,
    );
    const [[uri, edits]] = fix.edit.entries();
    assert.equal(uri.toString(), doc.uri.toString());
    const after = edits[0].newText;
    assert.equal((after.match(/^## Current Feature/gm) ?? []).length, 1, 'one Current Feature block left');
    assert.match(after, /## Current Feature: reservation queue/, 'the newest block stays');
    assert.equal(
      readFileSync(doc.uri.fsPath, 'utf8').includes('overdue scan'),
      true,
      'nothing written before the user applies it',
    );
  });

  it('CodeLens on the first line of a state file: label, counts, Checkpoint now, Open checklist', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.agents', 'STATE.md');
    const lenses = await waitFor('the lenses', async () => {
      const l =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
      return l.length ? l : undefined;
    });
    const titles = lenses.filter((l) => l.range.start.line === 0).map((l) => l.command?.title);
    assert.match(titles[0] ?? '', /^S4 checkpointing — (PARTIAL|WORKING)$/);
    assert.match(titles[1] ?? '', /^1 warning( · \d manual to tick)?$/);
    assert.deepEqual(titles.slice(2), ['$(save) Checkpoint now', '$(checklist) Open checklist']);
  });

  describe('S1 "Attest the handoff": a command, the core writes the sidecar', () => {
    const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    let original: Buffer;

    /** The attestation finding, once it is on the handoff's first line. */
    const finding = (what: string) =>
      waitFor(`the attestation finding (${what})`, () => {
        const [d] = diagnosticsOf(S1, 'attestation');
        return d && d.range.start.line === 0 ? d : undefined;
      });

    /** The attest quick fix offered for diagnostic `d`, titled `title`: a command (no edit) with its arguments. */
    const attestFix = (d: vscode.Diagnostic, title: string) =>
      commandFix(S1, d, title, 'exact', 'sessionLedger.quickFix.attest', 'the sidecar');

    before(async () => {
      await getApi();
      original = readFileSync(abs(SIDECAR));
      // the fixture starts attested, in the form the core writes: lowercase hex, no newline
      assert.equal(original.toString('utf8'), sha256(readFileSync(abs(S1))), 'the fixture sidecar matches');
      assert.equal(diagnosticsOf(S1, 'attestation').length, 0, 'no attestation finding to begin with');
    });

    afterEach(async () => {
      // the sidecar back as the fixture had it (a link is removed, never its target), S1 attested again
      rmSync(abs(SIDECAR), { force: true });
      writeFileSync(abs(SIDECAR), original);
      await waitFor('S1 attested again', () => diagnosticsOf(S1, 'attestation').length === 0);
    });

    it("a missing sidecar: the fix writes the handoff's SHA-256 as `session-ledger attest` does, and the finding disappears", async () => {
      rmSync(abs(SIDECAR));
      const d = await finding('NO_SIDECAR');
      assert.equal(d.severity, vscode.DiagnosticSeverity.Information);
      assert.match(d.message, /^NO_SIDECAR: memory\/\.session-handoff\.sha256 does not exist/);
      const cmd = await attestFix(d, 'Attest the handoff: write memory/.session-handoff.sha256');
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
      const written = readFileSync(abs(SIDECAR), 'utf8');
      assert.equal(written, sha256(readFileSync(abs(S1))), 'the lowercase hex SHA-256 of the handoff, no newline');
      assert.ok(lstatSync(abs(SIDECAR)).isFile(), 'a regular file');
      // the command-line tool finds it exactly as it would write it
      assert.equal(
        cli('attest', '--dry-run'),
        `memory/.session-handoff.sha256 already matches memory/session-handoff-LATEST.md (MATCH ${written}).`,
      );
      await waitFor('the attestation finding to disappear', () => diagnosticsOf(S1, 'attestation').length === 0);
      const s1 = (await getApi()).report()?.systems.find((s) => s.id === 'S1');
      assert.equal(s1?.checks.find((c) => c.id === 'attestation')?.status, 'pass', 'S1 attestation: MATCH');
    });

    /** The memory folder's entries, the link and the outside folder: what a refused write must leave as it was. */
    function snapshot(dir: string) {
      const outsideFile = join(dir, 'elsewhere.sha256');
      let outsideBytes: string | null = null;
      let outsideMtime: number | null = null;
      try {
        outsideBytes = readFileSync(outsideFile, 'utf8');
        outsideMtime = statSync(outsideFile).mtimeMs;
      } catch {
        // not there
      }
      return {
        memory: readdirSync(abs('memory')).sort(),
        link: readlinkSync(abs(SIDECAR)),
        outside: readdirSync(dir).sort(),
        outsideBytes,
        outsideMtime,
      };
    }

    it('a sidecar that is a symbolic link to a file outside the workspace: the fix refuses, the outside file is unchanged and nothing is written', async () => {
      const dir = outsideDir();
      const target = join(dir, 'elsewhere.sha256');
      writeFileSync(target, 'not yours\n');
      rmSync(abs(SIDECAR));
      symlinkSync(target, abs(SIDECAR));
      // the link is not followed out of the folder when read: the sidecar cannot be read, TAMPERED
      const d = await finding('TAMPERED through the link');
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      const before = snapshot(dir);
      // a link is refused before anything is asked (no modal), so the command returns on its own
      const cmd = await attestFix(d, 'I changed the handoff myself: attest it as it is now…');
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
      assert.deepEqual(snapshot(dir), before, 'the outside file, the link and the memory folder are as they were');
      assert.equal(readFileSync(target, 'utf8'), 'not yours\n');
      assert.ok(lstatSync(abs(SIDECAR)).isSymbolicLink(), 'the link is still there, not replaced');
      assert.equal(diagnosticsOf(S1, 'attestation').length, 1, 'the finding stays');
    });

    it('a sidecar that is a symbolic link to a missing file outside the workspace (NO_SIDECAR): the fix creates nothing there', async () => {
      const dir = outsideDir();
      const target = join(dir, 'elsewhere.sha256');
      rmSync(abs(SIDECAR));
      symlinkSync(target, abs(SIDECAR));
      const d = await finding('NO_SIDECAR through a dangling link');
      assert.match(d.message, /^NO_SIDECAR:/);
      const before = snapshot(dir);
      const cmd = await attestFix(d, 'Attest the handoff: write memory/.session-handoff.sha256');
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
      assert.deepEqual(snapshot(dir), before, 'the link and the memory folder are as they were');
      assert.deepEqual(readdirSync(dir), [], 'no file was created outside the workspace');
      assert.ok(lstatSync(abs(SIDECAR)).isSymbolicLink(), 'the link is still there, not replaced');
      assert.equal(diagnosticsOf(S1, 'attestation').length, 1, 'the finding stays');
    });
  });

  describe('S3 "Rotate the Log": a command, the core moves the entries', () => {
    const S3 = 'docs/state/STATE.md';
    /** Where the entry of 2026-11-20 (the older one) goes. */
    const ARCHIVE = 'docs/state/log/2026-11.md';
    let original: string;

    /** Where `session-ledger rotate-log --json` (no --apply: it writes nothing) would move Log entries. */
    const wouldMove = () =>
      (JSON.parse(cli('rotate-log', '--json')) as { moves: { dest: string }[] }).moves.map((m) => m.dest);

    /** A session-ledger preview open in the diff editor (the move is shown before it is asked). */
    const previewOpen = () =>
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme !== 'file'),
      );

    /** STATE.md over its 150-line budget: the older entry grows to 150 lines, so it is the one that moves. */
    async function overBudget(): Promise<vscode.Diagnostic> {
      const notes = Array.from({ length: 150 }, (_, i) => `- Note ${i + 1}: a line of the UTC work.`).join('\n');
      writeFileSync(abs(S3), original.replace('- Stopped at: overdue scan.', `${notes}\n- Stopped at: overdue scan.`));
      return waitFor('the budget finding on STATE.md', () => diagnosticsOf(S3, 'budget')[0]);
    }

    /** The rotate quick fix offered for diagnostic `d`: a command (no edit). */
    const rotateFix = (d: vscode.Diagnostic) =>
      commandFix(S3, d, 'Rotate the Log', 'prefix', 'sessionLedger.quickFix.rotateLog', 'an archive');

    before(async () => {
      await getApi();
      original = readFileSync(abs(S3), 'utf8');
      assert.equal(diagnosticsOf(S3, 'budget').length, 0, 'STATE.md within its budget to begin with');
    });

    afterEach(async () => {
      rmSync(abs(ARCHIVE), { force: true });
      writeFileSync(abs(S3), original);
      await waitFor('STATE.md within its budget again', () => diagnosticsOf(S3, 'budget').length === 0);
    });

    it('an archive that is a symbolic link out of the workspace: refused before the preview, nothing written there or in STATE.md', async () => {
      const d = await overBudget();
      const state = readFileSync(abs(S3), 'utf8');
      assert.deepEqual(wouldMove(), [ARCHIVE], 'without the link, the older entry would move to its archive');
      const dir = outsideDir();
      const target = join(dir, 'elsewhere.md');
      writeFileSync(target, 'not yours\n');
      symlinkSync(target, abs(ARCHIVE));
      assert.throws(wouldMove, /outside the workspace/, 'the core refuses the plan through the link');
      const cmd = await rotateFix(d);
      // the link is refused when the move is planned: no preview, no question, so the command returns on its own
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
      assert.equal(previewOpen(), false, 'no preview was shown');
      assert.equal(readFileSync(target, 'utf8'), 'not yours\n', 'the outside file is unchanged');
      assert.deepEqual(readdirSync(dir), ['elsewhere.md']);
      assert.ok(lstatSync(abs(ARCHIVE)).isSymbolicLink(), 'the link is still there, not replaced');
      assert.equal(readFileSync(abs(S3), 'utf8'), state, 'STATE.md is unchanged');
      assert.equal(diagnosticsOf(S3, 'budget').length, 1, 'the finding stays');
    });

    it('STATE.md with unsaved changes: refused before the preview, nothing written', async () => {
      const d = await overBudget();
      const state = readFileSync(abs(S3), 'utf8');
      assert.deepEqual(wouldMove(), [ARCHIVE], 'saved, the older entry would move to its archive');
      const logs = readdirSync(abs('docs/state/log')).sort();
      const cmd = await rotateFix(d);
      const editor = vscode.window.activeTextEditor;
      assert.ok(editor && editor.document.uri.fsPath === abs(S3), 'STATE.md is the active editor');
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), '<!-- unsaved -->\n'));
      assert.ok(editor.document.isDirty);
      try {
        await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
        assert.equal(previewOpen(), false, 'no preview was shown');
      } finally {
        // the unsaved change goes (closing a changed editor would ask whether to save it)
        await vscode.window.showTextDocument(editor.document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      assert.equal(readFileSync(abs(S3), 'utf8'), state, 'STATE.md on disk is unchanged');
      assert.deepEqual(readdirSync(abs('docs/state/log')).sort(), logs, 'no archive was written');
    });
  });
});
