// extensionTestsPath entry for a trusted fixture workspace (all five systems + a Claude Code home).
import { runSuites } from './runner';

export function run(): Promise<void> {
  return runSuites('integration', async () => {
    await import('./suites/activation.test');
    await import('./suites/tree.test');
    await import('./suites/status.test');
    await import('./suites/checkpoint.test');
    await import('./suites/watch.test');
    await import('./suites/fixes.test');
    // Last: it commits in the fixture's repository (and resets it back).
    await import('./suites/git-watch.test');
  });
}
