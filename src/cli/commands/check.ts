/**
 * `session-ledger check [--root DIR] [--json] [--strict] [--confirm ID,…] [--run-checks]`: exit 0 ok,
 * 1 BROKEN (or PARTIAL with --strict), 2 usage. `--run-checks` runs the repository's own
 * `node checks/check.mjs` (S3's step 6) and adds its result; without it, nothing of the repository runs.
 */
import { confirmLines } from '../../core/checkpoint/checkpoint';
import { withSessionTicks } from '../../core/checkpoint/marker-ticks';
import { jsonGuard, meantGuard, meantGuardLines } from '../../core/hooks/guard-state';
import { PROGRAM } from '../../core/model/messages';
import { evaluate } from '../../core/report/evaluate';
import { checksText, nothingDetectedText, overallLine, toJsonChecks } from '../../core/report/report';
import { runnableCheck, runRepoChecks, withRepoChecks } from '../../core/systems/s3/repo-checks';
import { listOpt, parse } from '../args';
import { commandLanguage, programOf } from '../language';
import { projectRoot } from '../project';
import type { Io } from '../io';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
    confirm: { type: 'string', multiple: true },
    'run-checks': { type: 'boolean' },
  });
  const root = await projectRoot(values.root, io);
  // The items the checkpoint of the session meant confirmed stay ticked, as in the checklist.
  const ticked = await withSessionTicks(root, await evaluate(root, { confirmed: listOpt(values.confirm) }), {
    env: io.env,
  });
  let report = ticked.report;
  if (values['run-checks'] && runnableCheck(report)) {
    const r = await runRepoChecks(root, { env: io.env });
    report = withRepoChecks(report, r);
    if (!values.json && r.output.trim())
      io.stdout(`${r.command}${r.truncated ? ' (last part of its output)' : ''}:\n${r.output.trimEnd()}\n`);
  }
  // After the verdict, what the guard would do with a manual /compact of the session meant now (read-only).
  const guard = await meantGuard(root, ticked.found, { env: io.env, report });
  if (values.json)
    io.stdout(JSON.stringify({ ...toJsonChecks(report), guard: jsonGuard(guard, programOf(root, io)) }, null, 2));
  else {
    const lang = await commandLanguage(io, root);
    const said = meantGuardLines(guard, lang, lang.program ?? PROGRAM).join('\n');
    io.stdout(
      report.systems.length === 0
        ? `${nothingDetectedText(report, lang)}\n${said}`
        : `${checksText(report, lang, false, (ids) => confirmLines(ticked.named, ids, lang, { root: values.root }))}\n\n${overallLine(report, lang)}\n${said}`,
    );
  }
  if (report.label === 'BROKEN') return 1;
  if (values.strict && report.label === 'PARTIAL') return 1;
  return 0;
}
