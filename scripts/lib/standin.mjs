// A local stand-in for the Anthropic Messages API, so the real Claude Code CLI runs offline in
// tests. It listens on 127.0.0.1 only, on a free port, inside the test process (no dependencies).
//
//   POST /v1/messages               streaming (SSE) or plain; the answer depends on the request:
//                                   the compaction's summarisation request gets a summary, a title
//                                   request gets a title, anything else an echo of the user's words
//   POST /v1/messages/count_tokens  an estimate (bytes / 4)
//   GET  /v1/models                 an empty list
//
// Every request is kept (`requests`: method, path, kind, session id header, parsed body) so a test
// can look at what the client sent, e.g. whether a SessionStart hook's text reached the model.
// The usage it reports is an estimate of the prompt size (almost all of it as cache reads, as a
// warm session reports it) unless `setUsage({...})` overrides fields, for every session or for one
// (`setUsage(fields, sessionId)`): that is how a test pushes the client over its auto-compact
// threshold.
//
// Standalone: `node scripts/lib/standin.mjs` prints `listening on http://127.0.0.1:PORT`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const SUMMARY =
  '<analysis>The stand-in looked at the conversation.</analysis>\n<summary>\n' +
  '1. Primary Request and Intent: the user is testing Session Ledger with the stand-in.\n' +
  '2. Key Technical Concepts: none.\n3. Files and Code Sections: none.\n4. Errors and fixes: none.\n' +
  '5. Problem Solving: none.\n6. All user messages: short test prompts.\n7. Pending Tasks: none.\n' +
  '8. Current Work: nothing in progress.\n9. Optional Next Step: none.\n</summary>';

/** The text of a message's content (string, or text and tool_result blocks). */
export function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (b?.type === 'text' ? (b.text ?? '') : b?.type === 'tool_result' ? contentText(b.content) : ''))
    .join('\n');
}

/** Everything a request body says, as one string (system prompt and every message). */
export function requestText(body) {
  const sys =
    typeof body?.system === 'string'
      ? body.system
      : Array.isArray(body?.system)
        ? body.system.map((b) => b?.text ?? '').join('\n')
        : '';
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  return [sys, ...msgs.map((m) => contentText(m?.content))].join('\n');
}

/** The user's own words in the last user message (after any <system-reminder> blocks). */
function lastUserWords(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const last = [...msgs].reverse().find((m) => m?.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  const texts = (Array.isArray(last.content) ? last.content : [])
    .filter((b) => b?.type === 'text' && !/^\s*<system-reminder>/.test(b.text ?? ''))
    .map((b) => b.text);
  return texts.length ? texts[texts.length - 1] : contentText(last.content);
}

/** What kind of request this is, and what the "model" answers. */
export function classify(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...msgs].reverse().find((m) => m?.role === 'user');
  const sys =
    typeof body?.system === 'string'
      ? body.system
      : Array.isArray(body?.system)
        ? body.system.map((b) => b?.text ?? '').join('\n')
        : '';
  const ask = `${sys}\n${lastUser ? contentText(lastUser.content) : ''}`;
  if (/summary of the conversation/i.test(ask)) return { kind: 'compact-summary', text: SUMMARY };
  if (/\btitle\b|\btopic\b/i.test(sys) && msgs.length <= 2 && !body?.tools?.length)
    return { kind: 'aux', text: '{"title": "Stand-in session", "isNewTopic": true}' };
  const words = lastUserWords(body).replace(/\s+/g, ' ').slice(0, 200);
  return { kind: 'chat', text: `Stand-in reply. You said: ${words}` };
}

/**
 * Start the stand-in. Returns { url, port, requests, messages(sessionId?), setUsage(fields|null, sessionId?), close() }.
 */
export async function startStandin({ delayMs = 0 } = {}) {
  const requests = [];
  const overrides = new Map(); // '' = every session
  const estimate = (body) => Math.max(1, Math.ceil(JSON.stringify(body ?? {}).length / 4));
  const usageFor = (body, sessionId, outputTokens) => {
    const est = estimate(body);
    const u = {
      input_tokens: 8,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: Math.max(0, est - 8),
      output_tokens: outputTokens,
      service_tier: 'standard',
    };
    Object.assign(u, overrides.get('') ?? {}, (sessionId && overrides.get(sessionId)) || {});
    return u;
  };
  const sleep = (ms) => (ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const url = new URL(req.url, 'http://127.0.0.1');
      const sessionId = req.headers['x-claude-code-session-id'] || null;
      const entry = {
        seq: requests.length + 1,
        at: Date.now(),
        method: req.method,
        path: url.pathname,
        sessionId,
        body,
        kind: 'other',
      };
      requests.push(entry);
      const json = (status, obj) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(obj));
      };
      try {
        if (req.method === 'POST' && url.pathname === '/v1/messages') {
          const { kind, text } = classify(body ?? {});
          entry.kind = kind;
          const out = Math.max(1, Math.ceil(text.length / 4));
          const usage = usageFor(body, sessionId, out);
          entry.usage = usage;
          const id = `msg_standin_${entry.seq}`;
          const model = body?.model || 'claude-standin';
          if (!body?.stream) {
            return json(200, {
              id,
              type: 'message',
              role: 'assistant',
              model,
              content: [{ type: 'text', text }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage,
            });
          }
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            connection: 'keep-alive',
            'request-id': `req_standin_${entry.seq}`,
          });
          const send = async (event, data) => {
            res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
            await sleep(delayMs);
          };
          await send('message_start', {
            type: 'message_start',
            message: {
              id,
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { ...usage, output_tokens: 1 },
            },
          });
          await send('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          });
          for (const piece of text.match(/[\s\S]{1,60}/g) ?? ['']) {
            await send('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: piece },
            });
          }
          await send('content_block_stop', { type: 'content_block_stop', index: 0 });
          const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = usage;
          await send('message_delta', {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens: out },
          });
          await send('message_stop', { type: 'message_stop' });
          return res.end();
        }
        if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
          entry.kind = 'count_tokens';
          return json(200, { input_tokens: estimate(body) });
        }
        if (req.method === 'GET' && url.pathname.startsWith('/v1/models')) {
          entry.kind = 'models';
          return json(200, { data: [], has_more: false, first_id: null, last_id: null });
        }
        if (req.method === 'HEAD' || (req.method === 'GET' && url.pathname === '/')) {
          res.writeHead(200);
          return res.end();
        }
        return json(404, {
          type: 'error',
          error: { type: 'not_found_error', message: `stand-in: no handler for ${req.method} ${url.pathname}` },
        });
      } catch (e) {
        try {
          json(500, { type: 'error', error: { type: 'api_error', message: String(e) } });
        } catch {
          /* the client went away */
        }
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** The /v1/messages requests (of one session when given). */
    messages: (sessionId) =>
      requests.filter((r) => r.path === '/v1/messages' && (!sessionId || r.sessionId === sessionId)),
    setUsage(fields, sessionId = '') {
      if (fields) overrides.set(sessionId, fields);
      else overrides.delete(sessionId);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const s = await startStandin();
  console.log(`listening on ${s.url}`);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => s.close().then(() => process.exit(0)));
}
