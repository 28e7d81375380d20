import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
// the API the extension's activate() returns (types only: nothing of the extension is bundled here)
import type { SessionLedgerApi } from '../../src/extension/api';

export const EXTENSION_ID = 'session-ledger.session-ledger';
/** The fixture's current Claude Code session (scripts/lib/workspace.mjs SESSION_ID). */
export const SESSION_ID = process.env.SESSION_LEDGER_E2E_SESSION_ID || '5b0c2f8e-7a41-4d2c-9b3e-1f6a8d2c4e71';
/** The fixture's older Claude Code session of the same folder (scripts/lib/workspace.mjs OLD_SESSION_ID). */
export const OLD_SESSION_ID = '0d9e6c11-3f0a-4b8e-8a55-2c7d41b9e0a3';
/** Its transcript: named by the runner, else where Claude Code keeps it for the open folder (the F5 "Extension Tests"). */
export const TRANSCRIPT =
  process.env.SESSION_LEDGER_E2E_TRANSCRIPT ||
  (process.env.CLAUDE_CONFIG_DIR && vscode.workspace.workspaceFolders?.[0]
    ? join(
        process.env.CLAUDE_CONFIG_DIR,
        'projects',
        vscode.workspace.workspaceFolders[0].uri.fsPath.replace(/[^a-zA-Z0-9]/g, '-'),
        `${SESSION_ID}.jsonl`,
      )
    : '');

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a folder is open');
  return f.uri.fsPath;
}

let api: SessionLedgerApi | undefined;
export async function getApi(): Promise<SessionLedgerApi> {
  if (api) return api;
  const ext = vscode.extensions.getExtension<SessionLedgerApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  const exports = await ext.activate();
  assert.ok(exports && typeof exports.report === 'function', 'activate() returns the SessionLedgerApi');
  await exports.ready;
  api = exports;
  return api;
}

export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 20_000,
  everyMs = 200,
): Promise<NonNullable<T>> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v as NonNullable<T>;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs)
      assert.fail(
        `timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function markers(root: string): string[] {
  const dir = join(root, '.claude');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('.checkpoint-ready')) : [];
}

export type TreeNode = { label: string; description?: string; name?: string; children: TreeNode[] };

export function flatten(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten((n.children ?? []) as TreeNode[])]);
}
