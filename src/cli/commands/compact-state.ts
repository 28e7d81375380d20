/**
 * `session-ledger compact-state [--root DIR] [--apply] [--expect-hash H] [--json]`: S4's compact phase.
 * Without --apply: print the compacted state and its hash, and write it to
 * .agents/logs/state-compaction-preview-<time>.md (the state untouched). With --apply: write it
 * (refused when .agents/STATE.md changed since it was read, or since the preview named by
 * --expect-hash). What it shows of the state (the compacted text, `composed` in --json, the blocks'
 * titles, the preview file) has its secrets and personal data masked; the hash is the real file's, and
 * --apply writes the real bytes. Exit 0 done / nothing to do, 1 refused or no S4 state, 2 bad usage.
 */
import {
  applyCompactState,
  planCompactState,
  S4_STATE_REL,
  writeCompactionPreview,
} from '../../core/systems/s4/compact-state';
import * as path from 'node:path';
import { writeRefusal } from '../../core/files/lock';
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
  const planned = await stepOrSay(io, 'compact-state', () => planCompactState(root), lang);
  if (!planned) return 1;
  const plan = planned.value;
  if (!plan) {
    io.stderr(
      `session-ledger compact-state: ${lang.msg(
        t('no state file of {0} ({1} with "# Agent State") under {2}.', systemName('S4'), S4_STATE_REL, root),
      )}`,
    );
    return 1;
  }
  const summary = plan.prunedBlocks.map((b) => `  - ${b.title} (lines ${b.line}-${b.endLine})`);
  let written = false;
  // Without --apply, the composed state goes to a preview file under .agents/logs/, as the seed's script writes it.
  let preview: string | null = null;
  // The preview says what applying it would refuse (a link at the lock or on the way), as --apply refuses it.
  if (!values.apply && plan.changed) {
    const refused = await writeRefusal(path.join(root, S4_STATE_REL), root);
    if (refused) {
      io.stderr(`session-ledger compact-state: ${errorSaid(refused, lang)}`);
      return 1;
    }
  }
  if (!values.apply && plan.changed && plan.structureOk) {
    const wrote = await stepOrSay(
      io,
      'compact-state: the preview was not written',
      () => writeCompactionPreview(root, plan),
      lang,
    );
    if (!wrote) return 1;
    preview = wrote.value;
  }
  if (values.apply && plan.changed) {
    if (
      !(await stepOrSay(
        io,
        'compact-state',
        () => applyCompactState(root, expect ?? plan.hash, expect === undefined),
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
          path: S4_STATE_REL,
          state_hash_before: plan.hash,
          changed: plan.changed,
          written,
          blocks_pruned: plan.prunedBlocks,
          structure_ok: plan.structureOk,
          problems: plan.problems,
          ...(values.apply ? {} : { composed: plan.shown.after, preview }),
        },
        null,
        2,
      ),
    );
    return plan.structureOk || !plan.changed ? 0 : 1;
  }
  if (!plan.changed) {
    io.stdout(
      `${S4_STATE_REL}: one Current block of each kind at most; nothing to compact (state_hash_before ${plan.hash}).`,
    );
    return 0;
  }
  if (written) {
    io.stdout(
      [
        `Compacted ${S4_STATE_REL}: ${plan.prunedBlocks.length === 1 ? '1 older block' : `${plan.prunedBlocks.length} older blocks`} removed, everything else kept verbatim.`,
        ...summary,
        'Structure checked: one # Agent State, one ## Progress Tracker.',
      ].join('\n'),
    );
    return 0;
  }
  io.stdout(
    [
      plan.shown.after.replace(/\n$/, ''),
      '',
      '---- session-ledger compact-state preview (nothing written) ----',
      `blocks pruned (${plan.prunedBlocks.length}):`,
      ...summary,
      plan.structureOk
        ? 'structure: ok (one # Agent State, one ## Progress Tracker)'
        : `structure: INVALID — ${plan.problems.join('; ')}`,
      `state_hash_before: ${plan.hash}`,
      ...(preview ? [`preview written: ${preview}`] : []),
      `apply: session-ledger compact-state --apply --expect-hash ${plan.hash}`,
    ].join('\n'),
  );
  return plan.structureOk ? 0 : 1;
}
