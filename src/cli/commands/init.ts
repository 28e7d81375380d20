/**
 * `session-ledger init [S0|S1|S2|S3|S4] [--root DIR] [--dry-run]`: write a system's starter file, the
 * same template the extension's "Create starter file" writes. It never overwrites: a home file that
 * exists refuses the whole starter (exit 1, nothing written); an optional companion that exists
 * (S0's .agents.yml, S1's MEMORY.md and context-log.md, S4's PROGRESS.md) is left as it is. Without a system it lists the starters.
 * Exit 0 written (or listed, or previewed), 1 refused, 2 bad usage.
 */
import { WriteRefused } from '../../core/files/atomic';
import { isSystemId, systemName } from '../../core/systems/facts';
import { planStarter, STARTER_SYSTEMS, starterFor, starterRefusal, writeStarter } from '../../core/systems/starter';
import { ENGLISH, invokedAs, PROGRAM, t } from '../../core/model/messages';
import { parse, SaidUsageError } from '../args';
import { cliLanguage } from '../bundle';
import { programOf } from '../language';
import { type Io } from '../io';
import { setUpRoot } from '../project';
import { errorSaid } from '../refused';

/** `a`, `a and b`, `a, b and c`. */
const listed = (xs: readonly string[]): string =>
  xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}` : (xs[0] ?? '');

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { root: { type: 'string' }, 'dry-run': { type: 'boolean' } }, true);
  if (positionals.length > 1) throw new SaidUsageError(t("one system at a time, got '{0}'", positionals.join(' ')));
  const id = positionals[0]?.toUpperCase();
  if (id !== undefined && !isSystemId(id))
    throw new SaidUsageError(t("unknown system '{0}': one of {1}", positionals[0], STARTER_SYSTEMS.join(', ')));
  const root = await setUpRoot(values.root, io);
  const words = await cliLanguage(io.env);
  // The commands it names run as this one was (the installed hook script where no `session-ledger` is on PATH).
  const lang = invokedAs(words, programOf(root, io));
  if (id === undefined) {
    const lines = ['Starter files (session-ledger init <system> writes one; nothing was written):'];
    for (const s of STARTER_SYSTEMS.map(starterFor))
      lines.push(`  ${systemName(s.system)}  ${s.files.map((f) => f.path).join(' + ')}  ${s.description.text}`);
    lines.push('Example: session-ledger init S3');
    io.stdout(lines.join('\n'));
    return 0;
  }
  const plan = await planStarter(root, id);
  // The configuration puts the home file outside the root (S0's `ledger_path: ../x.md`): refused, dry run or not.
  if (plan.refused) {
    io.stderr(`session-ledger init${values['dry-run'] ? ' --dry-run' : ''}: ${errorSaid(plan.refused, lang)}`);
    return 1;
  }
  if (plan.conflicts.length) {
    io.stderr(
      `session-ledger init: ${lang.msg(
        t(
          '{0} already exists; the starter never overwrites, nothing was written. Run `{1} status` to check it.',
          plan.conflicts.join(', '),
          PROGRAM,
        ),
      )}`,
    );
    return 1;
  }
  const kept = plan.keep.map((f) => `${f.path} exists and was left as it is.`);
  if (values['dry-run']) {
    const refused = await starterRefusal(root, plan);
    if (refused) {
      io.stderr(`session-ledger init --dry-run: ${errorSaid(refused, lang)}`);
      return 1;
    }
    io.stdout(
      [`Would write ${listed(plan.write.map((f) => f.path))} (the ${id} starter); nothing was written.`, ...kept].join(
        '\n',
      ),
    );
    return 0;
  }
  try {
    const res = await writeStarter(root, id);
    const keptNow = res.kept.map((p) => `${p} exists and was left as it is.`);
    io.stdout(
      [
        `Wrote ${listed(res.written)} (the ${id} starter).`,
        ...keptNow,
        `Next: replace its placeholders with this session's state, then run \`${lang.program ?? PROGRAM} check\`.`,
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    if (err instanceof WriteRefused) {
      io.stderr(
        words === ENGLISH
          ? `session-ledger init: ${err.message} Nothing more was written.`
          : `session-ledger init: ${errorSaid(err, lang)} ${lang.msg(t('Nothing more was written.'))}`,
      );
      return 1;
    }
    throw err;
  }
}
