/**
 * `session-ledger checkpoint [--root DIR] [--session ID] [--nothing-to-preserve] [--confirm ID,…] [--json]`:
 * exit 0 with the marker written, 1 when something blocks (nothing written), 2 bad usage.
 */
import { checkpoint } from '../../core/checkpoint';
import { isSessionId, markerRel } from '../../core/marker';
import { jsonCheck } from '../../core/report';
import { listOpt, parse, resolveRoot } from '../args';
import { UsageError, type Io } from '../io';

export const help =
  'checkpoint [--root DIR] [--session ID] [--nothing-to-preserve] [--confirm ID,...] [--json]   check, then write the marker .claude/.checkpoint-ready.<id> and print the resume prompt';

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    root: { type: 'string' },
    session: { type: 'string' },
    'nothing-to-preserve': { type: 'boolean' },
    confirm: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.session !== undefined && !isSessionId(values.session)) throw new UsageError(`--session: '${values.session}' is not a session id (letters, digits, '.', '_', '-')`);
  const root = await resolveRoot(values.root, io.cwd);
  const r = await checkpoint(root, {
    sessionId: values.session,
    nothingToPreserve: values['nothing-to-preserve'],
    confirmed: listOpt(values.confirm),
    env: io.env,
  });
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          ok: r.ok,
          root: r.report.root,
          label: r.report.label,
          sessionId: r.sessionId,
          sessionSource: r.sessionSource,
          marker: r.markerPath ? markerRel(r.sessionId) : null,
          markerPath: r.markerPath,
          shared: r.shared,
          resumePrompt: r.resumePrompt,
          blocking: r.blocking.map(jsonCheck),
          lines: r.lines,
        },
        null,
        2,
      ),
    );
  } else {
    (r.ok ? io.stdout : io.stderr)(r.lines.join('\n'));
  }
  return r.ok ? 0 : 1;
}
