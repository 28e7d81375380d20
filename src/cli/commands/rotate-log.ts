/**
 * `session-ledger rotate-log [--root DIR] [--apply] [--expect-hash H] [--json]`: S3's Log overflow.
 * Without --apply: say which Log entries would move to docs/state/log/YYYY-MM.md and the line counts
 * (nothing written). With --apply: move them (refused when STATE.md changed since it was read).
 * Exit 0 done / nothing to do, 1 refused or no S3 state, 2 bad usage.
 */
import { applyRotateLog, planRotateLog, rotateRefusal, S3_STATE_REL } from '../../core/systems/s3/rotate-log';
import { systemName } from '../../core/systems/facts';
import { t } from '../../core/model/messages';
import { parse, SaidUsageError } from '../args';
import { cliLanguage } from '../bundle';
import { projectRoot } from '../project';
import { type Io } from '../io';
import { errorSaid, stepOrSay } from '../refused';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    apply: { type: 'boolean' },
    'expect-hash': { type: 'string' },
    json: { type: 'boolean' },
  });
  const expect = values['expect-hash'];
  if (expect !== undefined && !/^[0-9a-f]{64}$/i.test(expect))
    throw new SaidUsageError(t('--expect-hash takes the 64-hex state hash the preview printed'));
  const root = await projectRoot(values.root, io);
  const lang = await cliLanguage(io.env);
  const planned = await stepOrSay(io, 'rotate-log', () => planRotateLog(root), lang);
  if (!planned) return 1;
  const plan = planned.value;
  if (!plan) {
    io.stderr(
      `session-ledger rotate-log: ${lang.msg(
        t('no state file of {0} ({1} with a ## Log) under {2}.', systemName('S3'), S3_STATE_REL, root),
      )}`,
    );
    return 1;
  }
  let written = false;
  // The preview says what applying it would refuse (a link at a lock or on an archive's way), as --apply refuses it.
  if (!values.apply && plan.changed) {
    const refused = await rotateRefusal(root, plan);
    if (refused) {
      io.stderr(`session-ledger rotate-log: ${errorSaid(refused, lang)}`);
      return 1;
    }
  }
  if (values.apply && plan.changed) {
    if (
      !(await stepOrSay(
        io,
        'rotate-log',
        () => applyRotateLog(root, expect ?? plan.hash, { unpreviewed: expect === undefined }),
        lang,
      ))
    )
      return 1;
    written = true;
  }
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          path: S3_STATE_REL,
          hash: plan.hash,
          budget: plan.budget,
          linesBefore: plan.linesBefore,
          linesAfter: plan.linesAfter,
          withinBudget: plan.withinBudget,
          moves: plan.moves,
          written,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  if (!plan.changed) {
    io.stdout(
      `${S3_STATE_REL}: ${plan.linesBefore} lines (budget ${plan.budget})${plan.withinBudget ? '; nothing to move.' : '; over budget, but no older dated Log entry is left to move.'}`,
    );
    return 0;
  }
  const lines = [
    `${written ? 'Moved' : 'Would move'} ${plan.moves.length} Log entr${plan.moves.length === 1 ? 'y' : 'ies'} (oldest first) out of ${S3_STATE_REL}: ${plan.linesBefore} → ${plan.linesAfter} lines (budget ${plan.budget}).`,
    ...plan.moves.map((m) => `  - ${m.title} (lines ${m.line}-${m.endLine}) → ${m.dest}`),
  ];
  if (!plan.withinBudget)
    lines.push(
      `Still over budget: the newest entry and the undated ones stay; shorten the handoff or the newest entry by hand.`,
    );
  if (!written) lines.push(`hash: ${plan.hash}`, `apply: session-ledger rotate-log --apply --expect-hash ${plan.hash}`);
  io.stdout(lines.join('\n'));
  return 0;
}
