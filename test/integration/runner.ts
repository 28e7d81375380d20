/**
 * Runs mocha suites inside VS Code's Node extension host (the `extensionTestsPath` module's `run()`).
 * Results go three ways: console (forwarded to the page's `codeAutomationLog`), a JSON file named by
 * SESSION_LEDGER_E2E_RESULTS (read by scripts/e2e.mjs), and the promise `run()` returns (its
 * rejection makes VS Code call `codeAutomationExit(1)`).
 */
import Mocha from 'mocha';
import { writeFileSync } from 'node:fs';

export interface TestResult {
  title: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export async function runSuites(name: string, load: () => Promise<unknown>): Promise<void> {
  const results: TestResult[] = [];
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false });
  mocha.reporter(function Reporter(this: unknown, runner: Mocha.Runner) {
    runner.on('pass', (t) => {
      results.push({ title: t.fullTitle(), ok: true, ms: t.duration ?? 0 });
      console.log(`  ✔ ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on('fail', (t, err: Error) => {
      results.push({ title: t.fullTitle(), ok: false, ms: t.duration ?? 0, error: err?.stack || String(err) });
      console.log(`  ✘ ${t.fullTitle()}\n${String(err?.stack || err).replace(/^/gm, '      ')}`);
    });
  } as unknown as typeof Mocha.reporters.Base);
  // define describe/it/before… on the global object, then load the suites (they call them)
  mocha.suite.emit('pre-require', globalThis, `${name}.js`, mocha);
  await load();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  const out = process.env.SESSION_LEDGER_E2E_RESULTS;
  if (out) writeFileSync(out, JSON.stringify({ suite: name, passed, failed, results }, null, 2));
  if (failures > 0 || results.length === 0) throw new Error(`${name}: ${failures} of ${results.length} test(s) failed`);
}
