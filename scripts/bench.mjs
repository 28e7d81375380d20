// npm run bench: how long `status` takes on a workspace holding all five systems, then every
// scripts/bench-*.mjs (context meter, extension). Figures are reported, never asserted.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { layOut } from './corpus-layout.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const corpus = process.env.SESSION_LEDGER_CORPUS ?? path.resolve(repo, '..', 'shared', 'corpus');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function benchStatus() {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'sl-bench-ws-'));
  try {
    // One repository of each system from the corpus, laid out at their real paths, in a git repo.
    const pick = new Set(['dpaluy/review-lens', 'IT-for-Prof/bird2-bgp-prefix-updater', 'kyle-agent/bombom', 'kaposty/context-kit', 'Tradebaas/Groundwork', 'sasaco/fempy']);
    const files = layOut(corpus, ws, (r) => pick.has(r.repo));
    const g = (...a) => execFileSync('git', a, { cwd: ws, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x.invalid' } });
    g('init', '-q');
    g('add', '-A');
    g('commit', '-qm', 'bench');
    const { evaluate } = await import(path.join(repo, 'out', 'src', 'core', 'evaluate.js')).catch(() => ({}));
    console.log(`\n## status on a workspace with ${files.length} corpus files from repositories of the five systems`);
    if (evaluate) {
      const times = [];
      let systems = 0;
      for (let i = 0; i < 30; i++) {
        const t0 = process.hrtime.bigint();
        const r = await evaluate(ws);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        systems = r.systems.length;
      }
      console.log(`in process (evaluate, ${systems} systems detected): median ${median(times).toFixed(1)} ms, first ${times[0].toFixed(1)} ms over ${times.length} runs`);
    }
    const cli = path.join(repo, 'dist', 'cli.js');
    const proc = [];
    const floor = [];
    for (let i = 0; i < 10; i++) {
      let t0 = process.hrtime.bigint();
      spawnSync(process.execPath, [cli, 'status', '--json', '--root', ws], { encoding: 'utf8' });
      proc.push(Number(process.hrtime.bigint() - t0) / 1e6);
      t0 = process.hrtime.bigint();
      spawnSync(process.execPath, ['-e', '0']);
      floor.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    console.log(`as a process (session-ledger status --json): median ${median(proc).toFixed(1)} ms; node -e 0: median ${median(floor).toFixed(1)} ms`);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

await benchStatus();
for (const f of readdirSync(here).filter((f) => /^bench-.+\.mjs$/.test(f)).sort()) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [path.join(here, f)], { stdio: 'inherit', cwd: repo });
  if (r.status !== 0) console.log(`(${f} exited ${r.status})`);
}
