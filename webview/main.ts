/**
 * The checklist webview: renders the host's state with DOM calls and textContent only (ledger text
 * is never parsed as HTML), sends typed messages back. Runs in the webview's browser sandbox.
 */
import { STATUS_ORDER, type ChecklistState, type CheckView, type HostToWebview, type SystemView, type WebviewToHost } from '../src/protocol/checklist';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost): void => vscode.postMessage(m);

const ICON: Record<string, string> = { pass: '✓', fail: '✗', warn: '!', skipped: '–', 'manual-open': '', 'manual-done': '' };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function locationLink(c: CheckView): HTMLAnchorElement | null {
  if (!c.path) return null;
  const text = c.line ? `${c.path}:${c.line}` : c.path;
  const a = el('a', { href: '#', class: 'location', 'data-key': `loc:${text}`, title: text }, text);
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    post({ type: 'open', path: c.path as string, line: c.line });
  });
  return a;
}

function checkRow(s: SystemView, c: CheckView, state: ChecklistState): HTMLLIElement {
  const li = el('li', { class: 'check', 'data-check-id': c.id, 'data-status': c.status, 'data-severity': c.severity });
  li.append(el('span', { class: 'icon', 'aria-hidden': 'true' }, ICON[c.status] ?? ''));
  const body = el('div', { class: 'body' });
  if (c.severity === 'manual') {
    const key = `${s.id}:${c.id}`;
    const label = el('label');
    const box = el('input', { type: 'checkbox', 'data-manual': key, 'data-key': `manual:${key}` });
    box.checked = c.status === 'manual-done';
    box.addEventListener('change', () => post({ type: 'toggleManual', system: s.id, checkId: c.id, checked: box.checked }));
    label.append(box, document.createTextNode(c.message));
    body.append(label);
  } else {
    body.append(el('span', { class: 'id' }, c.id), document.createTextNode(c.message));
    const link = locationLink(c);
    if (link) body.append(link);
    body.append(el('span', { class: 'sev' }, `${state.strings.status[c.status] ?? c.status} · ${state.strings.severity[c.severity] ?? c.severity}`));
    if (c.hint && c.status !== 'pass' && c.status !== 'skipped') body.append(el('div', { class: 'hint' }, `${state.strings.fix} ${c.hint}`));
  }
  li.append(body);
  return li;
}

function systemSection(s: SystemView, state: ChecklistState): HTMLElement {
  const sec = el('section', { class: 'system', 'data-system': s.id, 'aria-labelledby': `sys-${s.id}` });
  const h = el('h2', { id: `sys-${s.id}` });
  h.append(document.createTextNode(`${s.id} ${s.name} `), el('span', { class: `badge label-${s.label}`, 'data-label': s.label }, s.label));
  sec.append(h);
  sec.append(el('p', { class: 'meta' }, `${s.home}${s.next ? ` · ${state.strings.next} ${s.next}` : ''}`));
  const ul = el('ul', { class: 'checks' });
  const checks = [...s.checks].sort((a, b) => (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9));
  for (const c of checks) ul.append(checkRow(s, c, state));
  sec.append(ul);
  return sec;
}

function render(state: ChecklistState): void {
  const focusKey = (document.activeElement as HTMLElement | null)?.getAttribute('data-key');
  document.title = state.strings.title;
  const root = document.getElementById('app') as HTMLElement;
  root.replaceChildren();

  const header = el('header');
  header.append(el('h1', {}, state.folder ? `${state.strings.title} — ${state.folder}` : state.strings.title));
  const overall = el('span', { id: 'overall', class: `badge label-${state.overall ?? 'none'}`, 'aria-label': `${state.strings.overall} ${state.overall ?? ''}` }, state.overall ?? '');
  header.append(overall, el('span', { class: 'spacer' }));
  const refresh = el('button', { id: 'refresh', class: 'secondary', 'data-key': 'refresh' }, state.strings.refresh);
  refresh.addEventListener('click', () => post({ type: 'refresh' }));
  const write = el('button', { id: 'write-marker', 'data-key': 'write-marker' }, state.strings.writeMarker);
  write.disabled = !state.canWrite;
  write.addEventListener('click', () => {
    write.disabled = true;
    post({ type: 'writeMarker' });
  });
  header.append(refresh, write);
  root.append(header);

  const notes = el('div', { id: 'notes', role: 'status', 'aria-live': 'polite' });
  if (!state.trusted) notes.append(el('p', { class: 'note' }, state.strings.untrusted));
  if (state.systems.length === 0) notes.append(el('p', { class: 'note' }, state.strings.nothing));
  else if (state.blocked) notes.append(el('p', { class: 'note block' }, state.strings.blocked));
  else if (state.manualOpen > 0) notes.append(el('p', { class: 'note' }, state.strings.manualOpen.replace('{0}', String(state.manualOpen))));
  if (state.compactionAdvice !== null) notes.append(el('p', { class: 'note', id: 'compaction-advice' }, state.strings.compactions.replace('{0}', String(state.compactionAdvice))));
  if (state.busy) notes.append(el('p', { class: 'note' }, state.strings.busy));
  root.append(notes);

  const main = el('main', { id: 'systems' });
  for (const s of state.systems) main.append(systemSection(s, state));
  root.append(main);

  if (focusKey) {
    const again = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && !(again as HTMLButtonElement).disabled) again.focus();
  }
}

function focusCheck(system: string, checkId: string): void {
  const row = document.querySelector<HTMLElement>(`section[data-system="${CSS.escape(system)}"] .check[data-check-id="${CSS.escape(checkId)}"]`);
  if (!row) return;
  row.classList.add('focus');
  row.scrollIntoView({ block: 'center' });
  (row.querySelector<HTMLElement>('a, input') ?? row).focus();
}

window.addEventListener('message', (ev: MessageEvent<HostToWebview>) => {
  const m = ev.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'state') render(m.state);
  else if (m.type === 'focusCheck') focusCheck(m.system, m.checkId);
});

post({ type: 'ready' });
