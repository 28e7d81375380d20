/**
 * `session-ledger enable-ledger [--root DIR] [--dry-run] [--json]`: S0's write action, the one the
 * extension's quick fix "Enable the ledger" runs: `session: ledger: true` in `.agents.yml` (created
 * when missing, every other byte kept), written atomically, refused when the file changed since it was
 * read, never through a link. The file as it would be (`--dry-run`, and `after` in `--json`) is shown with
 * its secrets, personal data and `!!binary` values masked. Exit 0 written or already on, 1 refused, 2 bad usage.
 */
import { applyEnableLedger, planEnableLedger } from '../../core/systems/s0/enable';
import { t } from '../../core/model/messages';
import { parse } from '../args';
import { cliLanguage } from '../bundle';
import { projectRoot } from '../project';
import { type Io } from '../io';
import { errorSaid, stepOrSay } from '../refused';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const root = await projectRoot(values.root, io);
  const o = await planEnableLedger(root);
  const lang = await cliLanguage(io.env);
  if (!o.ok) {
    io.stderr(`session-ledger enable-ledger: ${lang.msg(o.why)} ${lang.msg(t('Nothing was written.'))}`);
    return 1;
  }
  const plan = o.plan;
  // A dry run says what the write would refuse, in the words the write says it.
  if (values['dry-run'] && !plan.already && plan.refusal) {
    io.stderr(`session-ledger enable-ledger: ${errorSaid(plan.refusal, lang)}`);
    return 1;
  }
  let written = false;
  if (!values['dry-run'] && !plan.already) {
    if (!(await stepOrSay(io, 'enable-ledger', () => applyEnableLedger(root, plan), lang))) return 1;
    written = true;
  }
  if (values.json) {
    io.stdout(
      JSON.stringify(
        { path: plan.rel, already: plan.already, created: plan.created, written, after: plan.shown.after },
        null,
        2,
      ),
    );
    return 0;
  }
  if (plan.already) io.stdout(`${plan.rel} already sets session.ledger: true; nothing to do.`);
  else if (!written) io.stdout(`${plan.shown.after.trimEnd()}\n---- ${plan.rel} as it would be (nothing written) ----`);
  else
    io.stdout(
      `${plan.created ? 'Created' : 'Updated'} ${plan.rel}: session.ledger: true. The checkpoint now checks and confirms the ledger.`,
    );
  return 0;
}
