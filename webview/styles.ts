/** The checklist's stylesheet: VS Code theme variables only. Inlined by the host in a nonce'd <style>. */
export const CHECKLIST_CSS = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; line-height: 1.45; }
header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; position: sticky; top: 0; background: var(--vscode-editor-background); padding: 12px 0; border-bottom: 1px solid var(--vscode-panel-border, transparent); z-index: 1; }
h1 { font-size: 1.3em; margin: 0; font-weight: 600; }
h2 { font-size: 1.1em; margin: 20px 0 6px; font-weight: 600; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 0.9em; border: 1px solid currentColor; }
.label-WORKING { color: var(--vscode-testing-iconPassed); }
.label-PARTIAL { color: var(--vscode-editorWarning-foreground); }
.label-BROKEN { color: var(--vscode-errorForeground); }
.spacer { flex: 1; }
button { font-family: inherit; font-size: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 4px 12px; border-radius: 2px; cursor: pointer; }
button:hover:not(:disabled) { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button.secondary:hover:not(:disabled) { background: var(--vscode-button-secondaryHoverBackground); }
button:disabled { opacity: 0.5; cursor: not-allowed; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.note { color: var(--vscode-descriptionForeground); margin: 4px 0; }
.note.block { color: var(--vscode-errorForeground); }
.system { margin-top: 8px; }
.system .meta { color: var(--vscode-descriptionForeground); margin: 0 0 6px; overflow-wrap: anywhere; }
ul.checks { list-style: none; margin: 0; padding: 0; }
.check { display: grid; grid-template-columns: 1.6em 1fr; gap: 2px 6px; padding: 5px 6px; border-radius: 3px; }
.check:nth-child(odd) { background: var(--vscode-list-hoverBackground, transparent); }
.check .icon { font-weight: 700; text-align: center; }
.check[data-status="pass"] .icon { color: var(--vscode-testing-iconPassed); }
.check[data-status="fail"] .icon { color: var(--vscode-errorForeground); }
.check[data-status="warn"] .icon { color: var(--vscode-editorWarning-foreground); }
.check[data-status="skipped"] { opacity: 0.7; }
.check .body { min-width: 0; overflow-wrap: anywhere; }
.check .id { font-family: var(--vscode-editor-font-family); color: var(--vscode-descriptionForeground); margin-right: 6px; }
.check .sev { color: var(--vscode-descriptionForeground); font-size: 0.9em; margin-left: 6px; }
.check .hint { color: var(--vscode-descriptionForeground); margin-top: 2px; }
.check a { color: var(--vscode-textLink-foreground); margin-left: 6px; text-decoration: none; cursor: pointer; }
.check a:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
.check label { cursor: pointer; }
.check input[type="checkbox"] { margin: 0 6px 0 0; vertical-align: middle; }
.check.focus { outline: 1px solid var(--vscode-focusBorder); }
`;
