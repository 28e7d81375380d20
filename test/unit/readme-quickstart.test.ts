/**
 * The README's quick start, followed literally: its commands and its example STATE text are read out
 * of the fenced blocks under "## Quick start" and run, in order, with the built CLI (`node
 * dist/cli.js`, what `session-ledger` runs) in a fresh git repository of a project; what each
 * command's comment says it does is what the run must show. A README that drifts from the tool (a
 * command that now refuses, a step the tool needs that the README leaves out) fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli, gitInit, REPO, workspace, type CliResult } from './helpers';
import { emptyClaudeHome, markers } from './checkpoint-fixtures';

/** The lines of the README's "## Quick start" section, up to the next `## ` heading outside a fenced block. */
function quickStart(readme: string): string {
  const lines = readme.split('\n');
  const at = lines.findIndex((l) => /^## Quick start\b/.test(l));
  assert.ok(at >= 0, 'the README has a "## Quick start" section');
  let fenced = false;
  let end = at + 1;
  for (; end < lines.length; end++) {
    if (lines[end].startsWith('```')) fenced = !fenced;
    else if (!fenced && lines[end].startsWith('## ')) break;
  }
  return lines.slice(at, end).join('\n');
}

/** The fenced blocks of a Markdown text, in order: the info string's language and the body. */
function fences(md: string): Array<{ lang: string; body: string }> {
  return [...md.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }));
}

/** A command line of a `sh` block: `session-ledger <args>  # what it does`. */
function command(line: string): { args: string[]; says: string } {
  const m = /^session-ledger\s+([^#]*?)\s*(?:#\s*(.*))?$/.exec(line);
  assert.ok(m, `a quick-start command runs session-ledger: ${line}`);
  return { args: m[1].split(/\s+/), says: m[2] ?? '' };
}

/**
 * What the run of one command must show, by what its comment says: every command the quick start
 * holds has its promise checked (one the test does not know fails, so a new step gets its check).
 */
function holdsItsWord(dir: string, args: string[], says: string, r: CliResult, before: string[]): void {
  const what = `session-ledger ${args.join(' ')}  # ${says}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  const exit = /\bexit (\d)\b/.exec(says);
  switch (args[0]) {
    case 'init': {
      assert.equal(r.code, 0, what);
      const file = /\bwrites (\S+)/.exec(says)?.[1].replace(/,$/, '');
      assert.ok(file, `the comment names the file init writes\n${what}`);
      assert.ok(existsSync(path.join(dir, file)), `${file} is written\n${what}`);
      return;
    }
    case 'status':
      assert.equal(r.code, 0, what);
      assert.match(says, /S3 is found/);
      assert.match(r.stdout, /^S3 .* — (BROKEN|PARTIAL)$/m, what);
      assert.match(says, /placeholders are reported as findings/);
      assert.match(r.stdout, /^\s+FAIL /m, what);
      return;
    case 'check':
      assert.ok(exit, `the comment says check's exit code\n${what}`);
      assert.equal(r.code, Number(exit[1]), what);
      assert.doesNotMatch(r.stdout + r.stderr, /^\s+FAIL /m, `nothing blocks\n${what}`);
      return;
    case 'checkpoint': {
      assert.equal(r.code, 0, what);
      assert.match(says, /writes the marker/);
      const now = markers(dir).filter((m) => !before.includes(m));
      assert.equal(now.length, 1, `one marker written\n${what}`);
      assert.match(r.stdout, /^Marker written: \.claude\/\.checkpoint-ready/m, what);
      const step = /next step \((\/\w+)\)/.exec(says)?.[1];
      assert.ok(step, `the comment names the next step\n${what}`);
      assert.ok(r.stdout.includes(step), `the closing step says ${step}\n${what}`);
      return;
    }
    default:
      assert.fail(`the quick start runs \`session-ledger ${args[0]}\`: this test knows no result for it; add one`);
  }
}

test("the README's quick start works as written: init, status, the example STATE text, check (exit 0), checkpoint (writes the marker)", () => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const section = quickStart(readme);
  const blocks = fences(section);
  assert.ok(
    blocks.some((b) => b.lang === 'markdown'),
    'the quick start shows the STATE text to write',
  );
  // A project of the user's: a git repository with a file of its own, no agent session of the machine.
  const dir = workspace({ 'README.md': '# search\n' });
  gitInit(dir);
  const env = { CLAUDE_CONFIG_DIR: emptyClaudeHome(), CODEX_HOME: emptyClaudeHome() };
  const ran: string[] = [];
  const placed: string[] = [];
  for (const b of blocks) {
    if (b.lang === 'markdown') {
      // The example replaces the starter from its first line (a heading the starter has) down.
      const from = b.body.split('\n')[0];
      placed.push(from.replace(/:.*/, ''));
      const file = path.join(dir, 'docs/state/STATE.md');
      const starter = readFileSync(file, 'utf8');
      const at = starter.indexOf(from);
      assert.ok(at >= 0, `the starter holds "${from}"`);
      writeFileSync(file, starter.slice(0, at) + b.body);
      continue;
    }
    assert.equal(b.lang, 'sh', `a quick-start block is sh or markdown: ${b.lang}`);
    for (const line of b.body.split('\n').filter((l) => l.trim())) {
      const { args, says } = command(line);
      const before = markers(dir);
      const r = cli(args, { cwd: dir, env });
      holdsItsWord(dir, args, says, r, before);
      ran.push(args[0]);
    }
  }
  assert.deepEqual(ran, ['init', 'status', 'check', 'checkpoint']);
  // ... which is where the README tells the reader to put it.
  for (const heading of placed)
    assert.ok(section.includes(`from \`${heading}\` down`), `the README says the text goes from ${heading} down`);
});
