/**
 * The checklist's stylesheet: VS Code theme variables only. Inlined by the host in a nonce'd <style>.
 *
 * Text is drawn only in the colours each built-in theme makes readable on the editor background
 * (`foreground`, `editor-foreground`, `textLink-foreground`, the button pairs); status colours
 * (passed, warning, error) are used for borders and bars only, beside words that say the same, so
 * nothing is told by colour alone and no text depends on a status colour's contrast. No opacity.
 * Links are underlined. In High Contrast the theme's contrast borders outline rows and buttons.
 */
export const CHECKLIST_CSS = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; line-height: 1.45; }
header { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; position: sticky; top: 0; background: var(--vscode-editor-background); padding: 12px 0; border-bottom: 1px solid var(--vscode-panel-border, transparent); z-index: 1; }
h1 { font-size: 1.3em; margin: 0; font-weight: 600; }
h2 { font-size: 1.1em; margin: 20px 0 6px; font-weight: 600; }
p.overall { margin: 0; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-weight: 600; font-size: 0.9em; color: var(--vscode-foreground); border: 2px solid var(--vscode-contrastBorder, currentColor); }
.label-WORKING { border-color: var(--vscode-testing-iconPassed); }
.label-PARTIAL { border-color: var(--vscode-editorWarning-foreground); }
.label-BROKEN { border-color: var(--vscode-errorForeground); }
.spacer { flex: 1; }
button { font-family: inherit; font-size: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, var(--vscode-contrastBorder, transparent)); padding: 4px 12px; border-radius: 2px; cursor: pointer; }
button:hover:not([aria-disabled="true"]) { background: var(--vscode-button-hoverBackground); }
button.secondary, button[aria-disabled="true"] { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button.secondary:hover:not([aria-disabled="true"]) { background: var(--vscode-button-secondaryHoverBackground); }
button[aria-disabled="true"] { cursor: not-allowed; border-style: dashed; border-color: var(--vscode-button-secondaryForeground); }
button:focus-visible, a:focus-visible, input:focus-visible, #result:focus { outline: 2px solid var(--vscode-focusBorder); outline-offset: 2px; }
.note { margin: 4px 0; }
.note.block { border-left: 3px solid var(--vscode-errorForeground); padding-left: 8px; }
#blocked p { margin: 0; }
ul.blocking { margin: 2px 0 0; padding-left: 1.2em; }
ul.blocking button.link, ul.blocking button.link:hover { color: var(--vscode-textLink-foreground); background: none; border: none; padding: 0; text-align: start; text-decoration: underline; cursor: pointer; }
ul.blocking .id { font-family: var(--vscode-editor-font-family); }
#actions { position: sticky; bottom: 0; display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; background: var(--vscode-editor-background); border-top: 1px solid var(--vscode-panel-border, transparent); padding: 10px 0; margin-top: 16px; }
#actions .note { flex: 1 1 20em; margin: 0; }
#result { margin-top: 12px; padding: 4px 10px; border-left: 3px solid var(--vscode-focusBorder); }
#result.result-refused, #result.result-failed { border-left-color: var(--vscode-errorForeground); }
#result.result-written, #result.result-nothing-to-preserve { border-left-color: var(--vscode-testing-iconPassed); }
#result h2 { margin: 4px 0; }
#result p { margin: 4px 0; white-space: pre-wrap; }
.system { margin-top: 8px; }
.system .meta { margin: 0 0 6px; overflow-wrap: anywhere; }
ul.checks { list-style: none; margin: 0; padding: 0; }
.check { display: grid; grid-template-columns: 1.6em 1fr; gap: 2px 6px; padding: 5px 6px; border-left: 3px solid transparent; }
.check:nth-child(odd) { background: var(--vscode-list-hoverBackground, transparent); }
.check .icon { font-weight: 700; text-align: center; }
.check[data-mark="pass"] { border-left-color: var(--vscode-testing-iconPassed); }
.check[data-mark="fail"] { border-left-color: var(--vscode-errorForeground); }
.check[data-mark="warn"] { border-left-color: var(--vscode-editorWarning-foreground); }
.check[data-mark="info"] { border-left-color: var(--vscode-editorInfo-foreground); }
.check[data-mark="manual-open"] { border-left-color: var(--vscode-focusBorder); }
.check[data-status="skipped"] .body { font-style: italic; }
.check .body { min-width: 0; overflow-wrap: anywhere; }
.check .id { font-family: var(--vscode-editor-font-family); margin-right: 2px; }
.check .sev { font-size: 0.9em; margin-left: 2px; }
.check .hint { margin-top: 2px; }
code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; }
.run-checks { margin-top: 4px; display: flex; gap: 8px; align-items: center; }
.run-output { max-height: 16em; overflow: auto; white-space: pre-wrap; margin: 4px 0 0; }
.check a { color: var(--vscode-textLink-foreground); margin-left: 2px; text-decoration: underline; cursor: pointer; }
.check a:hover { color: var(--vscode-textLink-activeForeground); }
.check label { cursor: pointer; }
.check input[type="checkbox"] { margin: 0 6px 0 0; vertical-align: middle; }
.check.focus { outline: 1px solid var(--vscode-focusBorder); }
`;
