/**
 * The checklist webview's page (vscode-free, so a test reads what the panel serves). Nothing of a
 * folder's state is in it: the page loads one script, and the state reaches it by message only, where
 * the script writes it as text (webview/main.ts). The Content Security Policy lets nothing load or
 * run but that script and the stylesheet inlined here, each carrying a nonce made fresh for every
 * page: no inline script or handler, no eval, no images, fonts, frames or connections.
 */
import { randomBytes } from 'node:crypto';
import { CHECKLIST_CSS } from '../../../webview/styles';

export function checklistPage(o: {
  /** The webview's own source for styles (`webview.cspSource`). */
  cspSource: string;
  /** The script's webview URI (dist/webview.js). */
  script: string;
  /** The display language (`vscode.env.language`): only letters, digits and `-` of it are kept. */
  language: string;
}): string {
  // 144 random bits, new for each page.
  const nonce = randomBytes(18).toString('base64');
  const csp = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${o.cspSource} 'nonce-${nonce}'`].join(
    '; ',
  );
  const lang = o.language.replace(/[^A-Za-z0-9-]/g, '') || 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Session Ledger Checklist</title>
<style nonce="${nonce}">${CHECKLIST_CSS}</style>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${o.script}"></script>
</body>
</html>`;
}
