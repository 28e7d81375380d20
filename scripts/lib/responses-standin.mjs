// A local stand-in for the OpenAI Responses API, so the real Codex CLI runs offline in tests. It
// listens on 127.0.0.1 only, on a free port, inside the test process (no dependencies).
//
//   POST /v1/responses   streamed (SSE): response.created, the assistant message (added, a text
//                        delta, done), response.completed with usage figures. The answer depends on
//                        the request: Codex's compaction request (its "CONTEXT CHECKPOINT
//                        COMPACTION" prompt) gets a summary, anything else an echo of the user's words.
//   anything else        404
//
// Codex reaches it through a custom model provider in $CODEX_HOME/config.toml (base_url
// http://127.0.0.1:PORT/v1, wire_api = "responses", supports_websockets = false: without the last
// one Codex 0.171.0 tries a WebSocket first). Every request is kept (`requests`: path, headers,
// kind, session id, parsed body, all its input text) so a test can look at what the client sent.
// The usage reported is an estimate of the request's size (bytes / 4) unless `setUsage({...})`
// overrides fields. `failTurns(error)` makes every turn request (not a compaction) from then on end
// in `response.failed` carrying `error` (e.g. `{ code: 'context_length_exceeded', message }`, what
// the Responses API sends when the input does not fit the model's window); `failTurns(null)` ends it.
//
// Standalone: `node scripts/lib/responses-standin.mjs` prints `listening on http://127.0.0.1:PORT`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const COMPACT_PROMPT = 'CONTEXT CHECKPOINT COMPACTION';
export const SUMMARY =
  'Stand-in summary: the user is testing Session Ledger with the stand-in; no task is in progress.';

/** Every text of a Responses request's input (messages' text parts, function outputs), in order. */
export function inputTexts(body) {
  const out = [];
  if (typeof body?.instructions === 'string') out.push(body.instructions);
  for (const it of Array.isArray(body?.input) ? body.input : []) {
    if (typeof it?.content === 'string') out.push(it.content);
    else if (Array.isArray(it?.content)) for (const c of it.content) if (typeof c?.text === 'string') out.push(c.text);
    if (typeof it?.output === 'string') out.push(it.output);
  }
  return out;
}

/** The last user message's text. */
function lastUserText(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  const last = [...input].reverse().find((it) => it?.type === 'message' && it?.role === 'user');
  if (!last) return '';
  return Array.isArray(last.content) ? last.content.map((c) => c?.text ?? '').join('\n') : String(last.content ?? '');
}

export async function startResponsesStandin({ port = 0 } = {}) {
  const requests = [];
  let usage = {};
  let failure = null;
  let n = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== '/v1/responses') {
        requests.push({ method: req.method, path, kind: 'other', body: null, text: '' });
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `the stand-in has no ${req.method} ${path}` } }));
        return;
      }
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'body is not JSON' } }));
        return;
      }
      n++;
      const words = lastUserText(body);
      const kind = words.includes(COMPACT_PROMPT) ? 'compact' : 'turn';
      const sessionId = req.headers['session-id'] ?? null;
      requests.push({
        method: 'POST',
        path,
        kind,
        sessionId,
        headers: req.headers,
        body,
        text: inputTexts(body).join('\n'),
      });
      const text = kind === 'compact' ? SUMMARY : `Stand-in reply ${n}: ${words.slice(0, 80)}`;
      const input = Math.max(1, Math.ceil(raw.length / 4));
      const u = {
        input_tokens: input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 0 },
        ...usage,
      };
      u.total_tokens = u.input_tokens + u.output_tokens;
      const id = `resp_standin_${n}`;
      const item = {
        type: 'message',
        role: 'assistant',
        id: `msg_standin_${n}`,
        content: [{ type: 'output_text', text }],
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (o) => res.write(`event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`);
      send({ type: 'response.created', response: { id } });
      if (failure && kind === 'turn') {
        send({ type: 'response.failed', response: { id, status: 'failed', error: failure } });
        res.end();
        return;
      }
      send({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
      send({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: text });
      send({ type: 'response.output_item.done', output_index: 0, item });
      send({ type: 'response.completed', response: { id, usage: u } });
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests,
    /** Override usage fields of every answer from now on (`{}` resets). */
    setUsage(fields) {
      usage = { ...fields };
    },
    /** Fail every turn request from now on with `response.failed` carrying `error` (`null` ends it). */
    failTurns(error) {
      failure = error ? { ...error } : null;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const s = await startResponsesStandin({ port: Number(process.env.PORT ?? 0) });
  console.log(`listening on ${s.url}`);
}
