/** Is this terminal running a coding agent? Name and process-name tests, vscode-free. */

export type AgentName = 'claude' | 'codex';

/** A terminal's name or a process name: `claude`, `Claude Code`, `✳ Claude Code`, `codex`. */
export function agentInText(text: string | undefined | null): AgentName | undefined {
  if (!text) return undefined;
  const t = text.toLowerCase().trim();
  if (/(^|[^a-z0-9])claude(?:$|[^a-z0-9.]|\s*code)/.test(t)) return 'claude';
  if (/(^|[^a-z0-9])codex(?:$|[^a-z0-9.])/.test(t)) return 'codex';
  return undefined;
}

/** From `/proc/<pid>/cmdline` (NUL-separated): the agent named by the program or the script it runs. */
export function agentInCmdline(cmdline: string): AgentName | undefined {
  const argv = cmdline.split('\0').filter(Boolean).slice(0, 2);
  for (const a of argv) {
    const base = (a.split(/[\\/]/).pop() ?? a).toLowerCase().replace(/\.(?:js|cjs|mjs|exe|cmd)$/, '');
    if (base === 'claude' || a.includes('@anthropic-ai/claude-code')) return 'claude';
    if (base === 'codex' || a.includes('@openai/codex')) return 'codex';
  }
  return undefined;
}
