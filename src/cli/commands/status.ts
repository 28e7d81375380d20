/** `session-ledger status [--root DIR] [--json] [--confirm ID,…]` */
import { confirmLines } from '../../core/checkpoint/checkpoint';
import { withSessionTicks } from '../../core/checkpoint/marker-ticks';
import { evaluate } from '../../core/report/evaluate';
import { statusText, toJsonStatus } from '../../core/report/report';
import { listOpt, parse } from '../args';
import { commandLanguage } from '../language';
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
  const { report, named } = await withSessionTicks(root, await evaluate(root, { confirmed: listOpt(values.confirm) }), {
    env: io.env,
  });
  if (values.json) io.stdout(JSON.stringify(toJsonStatus(report), null, 2));
  else {
    const lang = await commandLanguage(io, root);
    io.stdout(statusText(report, lang, (ids) => confirmLines(named, ids, lang, { root: values.root })));
  }
  return 0;
}
