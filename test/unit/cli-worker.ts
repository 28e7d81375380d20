/**
 * The CLI inside a worker thread, so that the tests' synchronous `cli()` runs the real bundle
 * (dist/cli.js) in this process instead of starting a Node process per call; `hookScript()` runs an
 * installed hook script's own entry (its `hotMain`) the same way. One call at a time: the test thread
 * posts a request and sleeps on `flag` until the reply is on `port`.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

interface Request {
  args: string[];
  cwd: string;
  input: string;
  env: NodeJS.ProcessEnv;
  /** A hook script to run instead of the CLI (an absolute path). */
  script?: string;
}

type Main = (argv: string[], io: unknown) => Promise<number>;

const { cli, flag, port } = workerData as { cli: string; flag: SharedArrayBuffer; port: MessagePort };
const signal = new Int32Array(flag);
const { main } = require(cli) as { main: Main };
const { bufferIo } = require('../../src/cli/io') as typeof import('../../src/cli/io');

/**
 * The hook scripts loaded so far, by their bytes: a copy with the same bytes as one loaded before (each
 * test installs its own copy of dist/session-ledger.cjs) runs that one's entry, so the file is compiled
 * once; a copy with other bytes is loaded from where it is.
 */
const scripts: Array<{ bytes: Buffer; hotMain: Main }> = [];

function entryOf(script: string | undefined): Main {
  if (script === undefined) return main;
  const bytes = readFileSync(script);
  let known = scripts.find((s) => s.bytes.equals(bytes));
  if (!known) {
    const { hotMain } = require(script) as { hotMain?: Main };
    if (typeof hotMain !== 'function') throw new Error(`${script} exports no hotMain`);
    known = { bytes, hotMain };
    scripts.push(known);
  }
  return known.hotMain;
}

parentPort!.on('message', async (req: Request) => {
  // The child processes the CLI starts (git, a relayed status line) see the caller's environment, as
  // they would from a CLI process started with it.
  const saved = process.env;
  process.env = { ...req.env };
  let reply;
  try {
    // A hook script's process has its path as argv[1] (absolute, as Node resolves it): the commands it prints name it.
    const io = {
      ...bufferIo({ input: req.input, env: process.env, cwd: req.cwd }),
      ...(req.script ? { script: req.script } : {}),
    };
    const code = await entryOf(req.script)(req.args, io);
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
