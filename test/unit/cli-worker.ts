/**
 * The CLI inside a worker thread, so that the tests' synchronous `cli()` runs the real bundle
 * (dist/cli.js) in this process instead of starting a Node process per call. One call at a time:
 * the test thread posts a request and sleeps on `flag` until the reply is on `port`.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

interface Request {
  args: string[];
  cwd: string;
  input: string;
  env: NodeJS.ProcessEnv;
}

const { cli, flag, port } = workerData as { cli: string; flag: SharedArrayBuffer; port: MessagePort };
const signal = new Int32Array(flag);
const { main } = require(cli) as { main: (argv: string[], io: unknown) => Promise<number> };
const { bufferIo } = require('../../src/cli/io') as typeof import('../../src/cli/io');

parentPort!.on('message', async (req: Request) => {
  // The child processes the CLI starts (git, a relayed status line) see the caller's environment, as
  // they would from a CLI process started with it.
  const saved = process.env;
  process.env = { ...req.env };
  let reply;
  try {
    const io = bufferIo({ input: req.input, env: process.env, cwd: req.cwd });
    const code = await main(req.args, io);
    reply = { code, stdout: io.out(), stderr: io.err() };
  } catch (err) {
    reply = { code: -1, stdout: '', stderr: `cli-worker: ${(err as Error)?.stack ?? String(err)}` };
  } finally {
    process.env = saved;
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
