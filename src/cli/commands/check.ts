/** `session-ledger check [--root DIR] [--json] [--strict] [--confirm ID,…]`: exit 0 ok, 1 BROKEN (or PARTIAL with --strict), 2 usage. */
import { evaluate } from '../../core/report/evaluate';
import { checksText, nothingDetectedText, toJsonChecks } from '../../core/report/report';
import { listOpt, parse, resolveRoot } from '../args';
import type { Io } from '../io';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
    confirm: { type: 'string', multiple: true },
  });
  const root = await resolveRoot(values.root, io.cwd);
  const report = await evaluate(root, { confirmed: listOpt(values.confirm) });
  if (values.json) io.stdout(JSON.stringify(toJsonChecks(report), null, 2));
  else if (report.systems.length === 0) io.stdout(nothingDetectedText(report));
  else io.stdout(`${checksText(report)}\n\nOverall: ${report.label}`);
  if (report.label === 'BROKEN') return 1;
  if (values.strict && report.label === 'PARTIAL') return 1;
  return 0;
}
