/** `session-ledger status [--root DIR] [--json] [--confirm ID,…]` */
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
  const report = await evaluate(root, { confirmed: listOpt(values.confirm) });
  io.stdout(
    values.json ? JSON.stringify(toJsonStatus(report), null, 2) : statusText(report, await commandLanguage(io, root)),
  );
  return 0;
}
