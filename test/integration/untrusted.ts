// extensionTestsPath entry for the same fixture opened in Restricted Mode (workspace not trusted).
import { runSuites } from './runner';

export function run(): Promise<void> {
  return runSuites('untrusted', async () => {
    await import('./suites/untrusted.test');
  });
}
