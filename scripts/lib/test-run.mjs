// The bookkeeping of a script that runs a real client through named tests (test-claude.mjs,
// test-codex.mjs): its options, a timed log, and `test(name, fn)`, which records a pass or a failure
// (with its stack) and never throws.

/** The options every such script takes: `--only A,B` (`want(name)`), `--keep`; `arg(name)` reads any other. */
export function runOptions(argv = process.argv.slice(2)) {
  const arg = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = arg('--only')?.split(',');
  return {
    argv,
    arg,
    keep: argv.includes('--keep') || !!process.env.SESSION_LEDGER_KEEP,
    want: (name) => !only || only.includes(name),
  };
}

/** { t0, log, results, test } for a run whose log lines start with `[name <seconds>s]`. */
export function testRun(name) {
  const t0 = Date.now();
  const results = [];
  const log = (...a) => console.log(`[${name} ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
  /** Run one test: a name and an async body; failures are recorded, never thrown. */
  async function test(title, fn) {
    const t = Date.now();
    try {
      await fn();
      results.push({ name: title, ok: true });
      console.log(`  ✔ ${title} (${Date.now() - t} ms)`);
      return true;
    } catch (e) {
      results.push({ name: title, ok: false });
      console.log(
        `  ✘ ${title} (${Date.now() - t} ms)\n      ${String(e?.stack || e)
          .split('\n')
          .join('\n      ')}`,
      );
      return false;
    }
  }
  return { t0, log, results, test };
}
