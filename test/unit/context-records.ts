/** Builders for synthetic Claude Code and Codex CLI transcript lines (shaped like the corpus). */

export interface AsstOpts {
  id?: string;
  model?: string;
  input?: number;
  create?: number;
  read?: number;
  output?: number;
  sidechain?: boolean;
  at?: string;
  session?: string;
  text?: string;
}

/** The lines' `cwd` (the builders write `/home/u/proj`) set to `root`: a transcript of that folder, as Claude Code writes it there. */
export function ofFolder(jsonl: string, root: string): string {
  return jsonl.replaceAll('"cwd":"/home/u/proj"', `"cwd":${JSON.stringify(root)}`);
}

export function asst(o: AsstOpts = {}): string {
  return JSON.stringify({
    parentUuid: 'p',
    isSidechain: o.sidechain ?? false,
    userType: 'external',
    cwd: '/home/u/proj',
    sessionId: o.session ?? 'sess-1',
    version: '2.1.39',
    type: 'assistant',
    message: {
      model: o.model ?? 'claude-opus-4-6',
      id: o.id ?? 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: o.text ?? 'ok' }],
      usage: {
        input_tokens: o.input ?? 1,
        cache_creation_input_tokens: o.create ?? 0,
        cache_read_input_tokens: o.read ?? 0,
        output_tokens: o.output ?? 1,
        service_tier: 'standard',
      },
    },
    uuid: `u-${o.id ?? 'msg_1'}`,
    timestamp: o.at ?? '2026-02-11T21:19:35.672Z',
  });
}

/** A user tool-result record carrying `bytes` of output. */
export function toolResult(bytes: number, at = '2026-02-11T21:19:40.000Z'): string {
  const out = 'x'.repeat(bytes);
  return JSON.stringify({
    isSidechain: false,
    type: 'user',
    sessionId: 'sess-1',
    message: {
      role: 'user',
      content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: out, is_error: false }],
    },
    toolUseResult: { stdout: out, stderr: '' },
    timestamp: at,
  });
}

export function progress(): string {
  return JSON.stringify({
    isSidechain: false,
    type: 'progress',
    data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
    timestamp: '2026-02-11T21:19:41.000Z',
  });
}

export function compact(postTokens?: number, at = '2026-02-11T21:30:00.000Z', preTokens = 167094): string {
  const meta: Record<string, unknown> = { trigger: 'auto', preTokens };
  if (postTokens !== undefined) meta.postTokens = postTokens;
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    sessionId: 'sess-1',
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    timestamp: at,
    compactMetadata: meta,
  });
}

export function codexMeta(id: string, cwd: string): string {
  return JSON.stringify({
    timestamp: '2026-02-23T11:40:29.275Z',
    type: 'session_meta',
    payload: { id, cwd, originator: 'codex_cli_rs', cli_version: '0.104.0' },
  });
}

export function codexTurn(model: string): string {
  return JSON.stringify({
    timestamp: '2026-02-23T11:40:30.000Z',
    type: 'turn_context',
    payload: { cwd: '/x', model, approval_policy: 'on-request' },
  });
}

export function codexCount(
  total: number | null,
  window: number | undefined = 258400,
  at = '2026-02-23T12:45:33.360Z',
): string {
  const info =
    total === null
      ? null
      : {
          total_token_usage: {
            input_tokens: total * 10,
            cached_input_tokens: 0,
            output_tokens: 5,
            reasoning_output_tokens: 0,
            total_tokens: total * 10 + 5,
          },
          last_token_usage: {
            input_tokens: total - 100,
            cached_input_tokens: 0,
            output_tokens: 100,
            reasoning_output_tokens: 10,
            total_tokens: total,
          },
          ...(window !== undefined ? { model_context_window: window } : {}),
        };
  return JSON.stringify({
    timestamp: at,
    type: 'event_msg',
    payload: { type: 'token_count', info, rate_limits: null },
  });
}

export function codexItem(bytes: number): string {
  return JSON.stringify({
    timestamp: '2026-02-23T12:45:34.000Z',
    type: 'response_item',
    payload: { type: 'function_call_output', call_id: 'c', output: 'y'.repeat(bytes) },
  });
}

export const lines = (...ls: string[]): string => ls.map((l) => `${l}\n`).join('');
