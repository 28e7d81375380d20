import type { Reading } from './ingest.js';

/** A reading that jumps more than `maxStepCm` from the one before it. */
export function spikes(readings: Reading[], maxStepCm = 40): Reading[] {
  return readings.filter((r, i) => i > 0 && Math.abs(r.levelCm - readings[i - 1].levelCm) > maxStepCm);
}

/** A gauge stuck on one value for `minRun` readings in a row (a frozen sensor). */
export function flatLines(readings: Reading[], minRun = 12): Reading[][] {
  const runs: Reading[][] = [];
  let run: Reading[] = [];
  for (const r of readings) {
    if (run.length && run[run.length - 1].levelCm !== r.levelCm) {
      if (run.length >= minRun) runs.push(run);
      run = [];
    }
    run.push(r);
  }
  if (run.length >= minRun) runs.push(run);
  return runs;
}
