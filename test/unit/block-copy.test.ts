/**
 * The guard's block as the user meets it: in the client's own screen, which shows it behind an indent
 * and breaks every line longer than its width (Claude Code at a space; Codex also after a hyphen, inside
 * a session id). The commands the block names are copied from there, line breaks and all, and run in a
 * POSIX shell: they must run as printed at 80 columns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { cli, HOOK_SCRIPT } from './helpers';
import { preCompact, projectShell, s3Workspace, SID } from './checkpoint-fixtures';

/** A shell command in the project `dir`, as Claude Code runs one there. */
const sh = (command: string, dir: string, input = '') => projectShell(command, dir, dir, input);

/**
 * `text` as a client shows it in a screen `cols` wide: every line behind the client's indent, a line too
 * long broken at the last space that fits (the space goes), or with `hyphens` also after a hyphen (Codex);
 * a word longer than the width is cut where the width ends. What follows a break goes on under the indent.
 */
function shown(text: string, cols: number, indent: number, hyphens: boolean): string {
  const width = cols - indent;
  const out: string[] = [];
  for (let line of text.split('\n')) {
    while (line.length > width) {
      const head = line.slice(0, width + 1);
      const space = head.lastIndexOf(' ');
      const hyphen = hyphens ? head.slice(0, width).lastIndexOf('-') : -1;
      if (space <= 0 && hyphen <= 0) {
        out.push(line.slice(0, width));
        line = line.slice(width);
      } else if (hyphen + 1 > space) {
        out.push(line.slice(0, hyphen + 1));
        line = line.slice(hyphen + 1);
      } else {
        out.push(line.slice(0, space));
        line = line.slice(space + 1);
      }
    }
    out.push(line);
  }
  return out.map((l) => ' '.repeat(indent) + l).join('\n');
}

/** What the user selects on the screen: from after `from` to before `to` (both as shown), as copied. */
function selected(screen: string, from: string, to: string): string {
  const start = screen.indexOf(from);
  assert.ok(start >= 0, `${from} on the screen:\n${screen}`);
  const end = screen.indexOf(to, start);
  assert.ok(end > start, `${to} after ${from} on the screen:\n${screen}`);
  return screen.slice(start + from.length, end).trim();
}

const CLIENTS = [
  { name: 'Claude Code', indent: 5, hyphens: false },
  { name: 'Codex CLI', indent: 4, hyphens: true },
];

for (const client of CLIENTS)
  test(`the guard's block in ${client.name}'s screen 80 columns wide: its checkpoint command, its nothing-to-preserve command and the lines that write that marker by hand, copied from there, run as printed and let /compact through`, () => {
    for (const which of ['checkpoint', 'nothing-to-preserve', 'by hand'] as const) {
      const dir = s3Workspace();
      const r = cli(['hooks', 'install', '--root', dir, '--cli-bundle', HOOK_SCRIPT]);
      assert.equal(r.code, 0, r.stderr);
      const hook = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/session-ledger.cjs" hook pre-compact';
      const blocked = sh(hook, dir, preCompact(dir));
      assert.equal(blocked.code, 2, blocked.stderr);
      const screen = shown(blocked.stderr, 80, client.indent, client.hyphens);
      const command =
        which === 'checkpoint'
          ? selected(screen, '3. Run:', 'It checks the state')
          : which === 'nothing-to-preserve'
            ? selected(screen, 'Nothing worth preserving? Run:', 'Or write the marker')
            : selected(`${screen}\n\n`, 'Or write the marker by hand:', '\n\n');
      assert.match(
        command,
        {
          checkpoint: /--confirm/,
          'nothing-to-preserve': /--nothing-to-preserve/,
          'by hand': /echo nothing-to-preserve/,
        }[which],
        screen,
      );
      // Copied into a shell in a subfolder of the project: the commands name the way to the marker themselves.
      mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
      const run = projectShell(command, which === 'by hand' ? path.join(dir, 'src/deep') : dir, dir);
      assert.equal(run.code, 0, `${which}, as copied:\n${command}\n${run.stdout}${run.stderr}`);
      assert.ok(existsSync(path.join(dir, `.claude/.checkpoint-ready.${SID}`)), `${which}: the marker the guard reads`);
      assert.equal(sh(hook, dir, preCompact(dir)).code, 0, `${which}: the guard lets /compact through, as it said`);
    }
  });
