/** The hook log at its size limit, and hooks appending to it in processes of their own (hook-log-*.test.ts). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { HOOK_LOG_MAX } from '../../src/core/hooks/io';

export const IO = path.join(__dirname, '..', '..', 'src', 'core', 'hooks', 'io.js');

/** The prefill's bytes and line count (the same every time: made once per process). */
let prefill: { bytes: Buffer; lines: number } | undefined;

/** Fill the log with numbered lines to one byte short of the limit; returns how many lines. */
export function fillToLimit(log: string): number {
  if (!prefill) {
    const lines: string[] = [];
    let size = 0;
    while (size < HOOK_LOG_MAX - 64) {
      const l = `prefill ${lines.length}\n`;
      lines.push(l);
      size += l.length;
    }
    const last = `prefill ${lines.length} `;
    lines.push(`${last}${'x'.repeat(HOOK_LOG_MAX - 1 - size - last.length - 1)}\n`);
    prefill = { bytes: Buffer.from(lines.join('')), lines: lines.length };
  }
  writeFileSync(log, prefill.bytes);
  return prefill.lines;
}

/** The log and the one before it, oldest first. */
export function bothLogs(log: string): string {
  return [`${log}.1`, log].map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : '')).join('');
}

/** What is missing of `n` prefill lines and of the lines naming each of `texts` once. */
export function missing(text: string, n: number, texts: string[]): string[] {
  const out: string[] = [];
  const pre = (text.match(/^prefill \d+( x+)?$/gm) ?? []).length;
  if (pre !== n) out.push(`${n - pre} of ${n} earlier lines`);
  // How often each ` test TEXT\n` stands in the log, in one pass over it (a round checks a dozen texts
  // against 256 KB): every ` test ` with what follows it up to the end of its line.
  const counts = new Map<string, number>();
  for (let at = text.indexOf(' test '); at >= 0; at = text.indexOf(' test ', at + 1)) {
    const end = text.indexOf('\n', at + 6);
    if (end < 0) break;
    const said = text.slice(at + 6, end);
    counts.set(said, (counts.get(said) ?? 0) + 1);
  }
  for (const t of texts) {
    const count = counts.get(t) ?? 0;
    if (count !== 1) out.push(`"${t}" ${count} times`);
  }
  return out;
}

/** A hook appending `text` in a process of its own, run to its end. */
export function hookProcess(dir: string, text: string): void {
  const r = spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(IO)}).appendHookLog(process.argv[1], 'test', process.argv[2])`, dir, text],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
}
