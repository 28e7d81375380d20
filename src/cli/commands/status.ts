/** `session-ledger status [--root DIR] [--json] [--confirm ID,…]` */
import { confirmLines } from '../../core/checkpoint/checkpoint';
import { withSessionTicks } from '../../core/checkpoint/marker-ticks';
import { jsonGuard, meantGuard, meantGuardLines } from '../../core/hooks/guard-state';
import { PROGRAM } from '../../core/model/messages';
import { evaluate } from '../../core/report/evaluate';
import { statusText, toJsonStatus } from '../../core/report/report';
import { listOpt, parse } from '../args';
import { commandLanguage, programOf } from '../language';
import { projectRoot } from '../project';
import type { Io } from '../io';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    json: { type: 'boolean' },
    confirm: { type: 'string', multiple: true },
  });
  const root = await projectRoot(values.root, io);
  // The items the checkpoint of the session meant confirmed stay ticked, as in the checklist.
  const { report, named, found } = await withSessionTicks(
    root,
    await evaluate(root, { confirmed: listOpt(values.confirm) }),
    {
      env: io.env,
    },
  );
  // Last, what the guard would do with a manual /compact of that session now (read-only: nothing logged).
  const guard = await meantGuard(root, found, { env: io.env, report });
  if (values.json)
    io.stdout(JSON.stringify({ ...toJsonStatus(report), guard: jsonGuard(guard, programOf(root, io)) }, null, 2));
  else {
    const lang = await commandLanguage(io, root);
    const said = meantGuardLines(guard, lang, lang.program ?? PROGRAM).join('\n');
    io.stdout(`${statusText(report, lang, (ids) => confirmLines(named, ids, lang, { root: values.root }))}\n${said}`);
  }
  return 0;
}
