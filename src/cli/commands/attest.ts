/**
 * `session-ledger attest [--root DIR] [--dry-run] [--json]`: write S1's attestation sidecar
 * `memory/.session-handoff.sha256` (lowercase hex SHA-256 of the handoff's bytes, no newline).
 * Exit 0 written or already matching, 1 no handoff or refused, 2 bad usage.
 */
import * as path from 'node:path';
import { applyAttest, planAttest, S1_HANDOFF_REL } from '../../core/systems/s1/attest';
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
  const plan = await planAttest(root);
  const lang = await cliLanguage(io.env);
  if (!plan) {
    io.stderr(
      `session-ledger attest: ${lang.msg(t('{0} not found (or not readable); nothing to attest.', S1_HANDOFF_REL))}`,
    );
    return 1;
  }
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  // A dry run says what the write would refuse, in the words the write says it.
  if (values['dry-run'] && plan.changed && plan.refusal) {
    io.stderr(`session-ledger attest: ${errorSaid(plan.refusal, lang)}`);
    return 1;
  }
  if (!values['dry-run']) {
    if (!(await stepOrSay(io, 'attest', () => applyAttest(plan), lang))) return 1;
  }
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          handoff: rel(plan.handoff),
          sidecar: rel(plan.sidecar),
          sha256: plan.hash,
          before: plan.status,
          written: !values['dry-run'] && plan.changed,
        },
        null,
        2,
      ),
    );
  } else if (!plan.changed) {
    io.stdout(`${rel(plan.sidecar)} already matches ${rel(plan.handoff)} (MATCH ${plan.hash}).`);
  } else {
    io.stdout(
      `${values['dry-run'] ? 'Would write' : 'Wrote'} ${rel(plan.sidecar)} = ${plan.hash} (was ${plan.status}${plan.current && plan.status === 'TAMPERED' ? `: ${plan.current}` : ''}).`,
    );
  }
  return 0;
}
