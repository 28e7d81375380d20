/**
 * `session-ledger checkpoint [--root DIR] [--session ID] [--shared] [--nothing-to-preserve] [--confirm ID,…] [--json]`:
 * exit 0 with the marker written; 1 when no marker was written (something blocks, manual items
 * unconfirmed, nothing detected, the session ambiguous, every system switched off); 2 bad usage
 * (a bad --session, an unknown --confirm id).
 */
import { checkpoint, refusalLines } from '../../core/checkpoint/checkpoint';
import { isSessionId } from '../../core/checkpoint/marker';
import { closingChoice } from '../../core/report/closing';
import { jsonCheck } from '../../core/report/report';
import { isSessionItem } from '../../core/model/model';
import { listOpt, parse, SaidUsageError } from '../args';
import { ENGLISH, invokedAs, t } from '../../core/model/messages';
import { commandLanguage, programOf } from '../language';
import { projectRoot } from '../project';
import { UsageError, type Io } from '../io';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    session: { type: 'string' },
    shared: { type: 'boolean' },
    'nothing-to-preserve': { type: 'boolean' },
    confirm: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.session !== undefined && !isSessionId(values.session))
    throw new SaidUsageError(
      t("--session: '{0}' is not a session id (letters, digits, '.', '_', '-')", values.session),
    );
  const root = await projectRoot(values.root, io);
  // `--json` carries the lines in English, as every field of it; the commands they name run as this one was.
  const language = values.json ? invokedAs(ENGLISH, programOf(root, io)) : await commandLanguage(io, root);
  const r = await checkpoint(root, {
    sessionId: values.session,
    shared: values.shared,
    nothingToPreserve: values['nothing-to-preserve'],
    confirmed: listOpt(values.confirm),
    env: io.env,
    language,
    rootOption: values.root,
  });
  const unknown = r.refusals.find((x) => x.code === 'unknown-confirm');
  if (unknown) throw new UsageError(refusalLines(unknown, Date.now(), language).join(' '));
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          ok: r.ok,
          outcome: r.kind,
          root: r.report.root,
          label: r.report.label,
          sessionId: r.sessionId,
          sessionSource: r.sessionSource,
          sessionAgent: r.sessionAgent ?? null,
          marker: r.marker,
          markerPath: r.markerPath,
          shared: r.shared,
          ...(r.signedBy !== undefined ? { signedBy: r.signedBy, signedByAgent: r.signedByAgent ?? null } : {}),
          resumePrompt: r.resumePrompt,
          refusals: r.refusals.map((x) => ({
            code: x.code,
            // A manual item about the session is one for every system: it names none.
            checks: x.checks.map((c) => ({ system: isSessionItem(c) ? null : c.system, ...jsonCheck(c) })),
            ...(x.ids ? { ids: x.ids } : {}),
            ...(x.sessions
              ? {
                  sessions: x.sessions.map((s) => ({ ...s, lastWrite: new Date(s.lastWrite).toISOString() })),
                  windowMinutes: x.windowMinutes,
                }
              : {}),
            ...(x.unplaced ? { unplaced: x.unplaced } : {}),
            ...(x.lookedFor ? { lookedFor: x.lookedFor } : {}),
            ...(x.notRead ? { notRead: x.notRead } : {}),
            ...(x.error ? { error: x.error } : {}),
          })),
          blocking: r.blocking.map(jsonCheck),
          closing: r.closing.map((c) => ({
            system: c.system,
            step: c.step,
            prescribed: c.prescribed,
            home: c.home,
            resumePrompt: c.resumePrompt,
            lines: c.lines,
            ...(c.s0 ? { s0: c.s0 } : {}),
          })),
          choice: closingChoice(r.closing, r.guarded)?.text ?? null,
          skipped: r.skipped,
          lines: r.lines,
        },
        null,
        2,
      ),
    );
  } else {
    (r.ok || r.kind === 'skipped' ? io.stdout : io.stderr)(r.lines.join('\n').replace(/^\n+/, ''));
  }
  // Every detected system switched off by its own configuration: skipping is what was asked for (exit 0, no marker).
  return r.ok || r.kind === 'skipped' ? 0 : 1;
}
