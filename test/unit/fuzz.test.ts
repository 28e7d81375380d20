/**
 * Fuzzing with a small seeded generator (no dependency, same inputs on every run; SL_FUZZ_SEED
 * picks another seed): readers and checks never throw on random, hostile documents at every
 * system's paths, masking keeps lines and leaves no secret behind, and evaluation stays linear on
 * pathological lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluate } from '../../src/core/report/evaluate';
import { findSecrets, maskSecrets } from '../../src/core/secrets/secrets';
import { rng, workspace } from './helpers';

/** Secrets still found in masked text, a private key's header (which stays) aside. */
function valuesLeft(text: string): string[] {
  return findSecrets(text)
    .filter((h) => h.rule !== 'private key')
    .map((h) => `${h.rule}@${h.line}`);
}

const SEED = Number(process.env.SL_FUZZ_SEED ?? 20261202);

const PIECES = [
  '# ',
  '## ',
  '### ',
  '#### ',
  '- ',
  '* ',
  '1. ',
  '- [ ] ',
  '- [x] ',
  '> ',
  '```',
  '~~~',
  '---',
  '\n',
  '\n\n',
  '\r\n',
  '\t',
  '  ',
  '**',
  '__',
  '`',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '<!--',
  '-->',
  '|',
  ':',
  '：',
  '=',
  '"',
  "'",
  '{',
  '}',
  '{{',
  '}}',
  '%',
  '%E0%A4%A',
  '\\',
  'Now ▶',
  'Next',
  'Goal',
  'Decisions',
  'UNCONFIRMED',
  'Handoff',
  'Log',
  'Agent State',
  'Progress Tracker',
  'Current Feature',
  'TASK',
  'NEXT',
  'VERIFIED',
  'DROPPED',
  'PLAN',
  'OPEN',
  '2026-11-30',
  '2026-13-45',
  'main @ abc1234',
  'src/a.ts',
  '../../etc/passwd',
  '/etc/passwd',
  'docs/state/STATE.md',
  'https://u:p@h/x',
  'x://',
  'eyJ',
  'eyJhbGciOiJIUzI1NiJ9.',
  'sk-ant-',
  'ghp_',
  'AKIA',
  'password=',
  'DB_PASSWORD=hunter2hunter2hunter2',
  'TOKEN:',
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----END RSA PRIVATE KEY-----',
  'session:',
  '  ledger: true',
  '  ledger_path: ',
  'ledger:',
  'compaction:',
  '  checkpoint:',
  'project_state:',
  '&a',
  '*a',
  '!!binary',
  '? ',
  '- - -',
  '\u001b[31m',
  '\u001b]0;t\u0007',
  '\u0000',
  '\u00ad',
  '\u200b',
  '\u202e',
  '\ud800',
  '\uFEFF',
  'é',
  '中文',
  '진행 중',
  'привет',
  '🙂',
];

function doc(r: () => number, maxPieces: number): string {
  const n = Math.floor(r() * maxPieces);
  let out = '';
  for (let i = 0; i < n; i++) {
    const p = PIECES[Math.floor(r() * PIECES.length)];
    // Now and then a long run of one piece (a pathological line).
    out += r() < 0.03 ? p.repeat(1 + Math.floor(r() * 400)) : p;
    if (r() < 0.25) out += ' word';
  }
  return out;
}

const PATHS = [
  '.agents.yml',
  '.agents/session_ledger.md',
  'CONTINUITY.md',
  'memory/session-handoff-LATEST.md',
  'memory/MEMORY.md',
  'memory/.session-handoff.sha256',
  '.claude/session-ledger.md',
  'context-manifest.yaml',
  '.claude/project-state.md',
  'docs/state/STATE.md',
  '.agents/STATE.md',
  'PROGRESS.md',
  'checks/config.json',
];

test('readers and checks never throw on random hostile documents at every system path (seeded)', async () => {
  const r = rng(SEED);
  for (let round = 0; round < 40; round++) {
    const dir = workspace({}, 'sl-fuzz-');
    for (const rel of PATHS) {
      if (r() < 0.35) continue;
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), doc(r, 300));
    }
    let report;
    try {
      report = await evaluate(dir, { noGit: true, now: Date.parse('2026-12-02T12:00:00Z') });
    } catch (err) {
      assert.fail(`seed ${SEED} round ${round}: evaluate threw ${(err as Error)?.stack ?? err}`);
    }
    for (const s of report.systems) {
      const internal = s.checks.find((c) => c.id === 'internal' || c.id === 'parse');
      assert.equal(internal, undefined, `seed ${SEED} round ${round} ${s.id}: ${internal?.message}`);
      // Only a private key's header line stays (it names the key; its body is masked).
      for (const d of s.docs)
        assert.deepEqual(
          valuesLeft(d.text),
          [],
          `seed ${SEED} round ${round}: ${d.relPath} still holds a secret after masking`,
        );
    }
  }
});

test('masking keeps every line and leaves nothing to find (seeded)', () => {
  const r = rng(SEED + 1);
  for (let i = 0; i < 400; i++) {
    const text = doc(r, 120);
    const m = maskSecrets(text);
    assert.equal(m.text.split('\n').length, text.split('\n').length, `seed ${SEED + 1} case ${i}`);
    assert.deepEqual(valuesLeft(m.text), [], `seed ${SEED + 1} case ${i}: ${JSON.stringify(text).slice(0, 200)}`);
  }
});

// Linear time over the whole evaluation (readers and every check): one pathological line at n and
// 4n characters in every system's home file, in CPU time of this process; a quadratic step takes
// ~16x, a linear one ~4x. The
// small run counts as at least 20 ms (cache effects); the bound is 10x on at least one of three
// attempts. No absolute timing.

const LINES: Record<string, (n: number) => string> = {
  'unclosed brackets': (n) => '[('.repeat(n / 2),
  'emphasis and code marks': (n) => '**`_'.repeat(n / 4),
  'comment openers': (n) => '<!--'.repeat(n / 4),
  'path-like runs': (n) => 'a/'.repeat(n / 2),
  'labels and colons': (n) => 'Now: '.repeat(n / 5),
  'secret-like prefixes': (n) => 'eyJ-sk-ghp_'.repeat(n / 11),
};

/** CPU time of this process (ms; file reads on libuv's threads included), not wall time: a busy
 * machine's other processes do not count. */
function ms(f: () => Promise<unknown>): Promise<number> {
  const t0 = process.cpuUsage();
  return f().then(() => {
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1e3;
  });
}

test('evaluation stays linear on pathological lines in every system home file (n vs 4n)', async () => {
  // 10,000 characters against 40,000: a step quadratic in the line's length costs 16 times more, and at
  // 40,000 characters it takes seconds, far over the 20 ms floor of the small run.
  const n = 10_000;
  const make = (line: string) =>
    workspace(
      {
        '.agents.yml': 'session:\n  ledger: true\n',
        '.agents/session_ledger.md': `# Session Ledger\n\n## Now\n- ${line}\n`,
        'memory/session-handoff-LATEST.md': `# Session Handoff\n\n## What to do now\n1. ${line}\n`,
        '.claude/session-ledger.md': `## NEXT\n${line}\n\n## VERIFIED\n- ${line}\n`,
        'docs/state/STATE.md': `# State\n\n## Handoff\n- **Now ▶** ${line}\n\n## Log\n### 2026-01-01 ${line}\n`,
        '.agents/STATE.md': `# Agent State\n\n## Current Feature: ${line}\n\n## Progress Tracker\n- ${line}\n`,
      },
      'sl-fuzz-lin-',
    );
  for (const [name, mk] of Object.entries(LINES)) {
    const small = make(mk(n));
    const big = make(mk(4 * n));
    await evaluate(small, { noGit: true });
    // A busy machine can stall one measurement; a quadratic step is slow on every attempt.
    let seen = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const a = Math.max(
        20,
        Math.min(await ms(() => evaluate(small, { noGit: true })), await ms(() => evaluate(small, { noGit: true }))),
      );
      // The big run once per attempt: a stalled one only costs another attempt (the small one is the
      // best of two, since a stalled small run could let a slow big one pass).
      const b = await ms(() => evaluate(big, { noGit: true }));
      seen += ` ${a.toFixed(0)}/${b.toFixed(0)} ms`;
      if (b / a < 10) break;
      assert.ok(attempt < 2, `${name}: ${n} vs ${4 * n} chars took${seen} (ratio over 10 on every attempt)`);
    }
  }
});
