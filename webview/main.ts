/**
 * The checklist webview: renders the host's state with DOM calls and textContent only (ledger text
 * is never parsed as HTML), sends typed messages back. Runs in the webview's browser sandbox.
 *
 * For keyboard and screen-reader users: one `main` holds everything; the page's frame (heading,
 * Re-check, the write button, its reason, the outcome) is built once and only updated, and a redraw
 * of the items changes the existing nodes in place (`morph`), so focus, a key held down on a box
 * and the live region survive every redraw; the write button follows the items, stays focusable
 * when it cannot be used (`aria-disabled`, the reason as its description) and takes the focus when
 * the last manual item is ticked; after a write the focus moves to the outcome.
 */
import {
  manualOpenText,
  STATUS_ORDER,
  type ChecklistState,
  type CheckView,
  type HostToWebview,
  type SystemView,
  type TextPart,
  type WebviewToHost,
  type WriteResult,
} from '../src/protocol/checklist';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: WebviewToHost): void => vscode.postMessage(m);

const ICON: Record<string, string> = {
  pass: '✓',
  fail: '✗',
  warn: '!',
  info: 'i',
  skipped: '–',
  'manual-open': '',
  'manual-done': '',
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The page's frame, built once: redraws replace the systems and the notes, never these. */
const main = el('main', { id: 'app' });
const title = el('h1');
const overallLine = el('p', { class: 'overall' });
const overallWord = document.createTextNode('');
// Hidden until the first state names the label: an empty badge would show (and be found) before it.
const overall = el('span', { id: 'overall', class: 'badge', hidden: '' });
overallLine.append(overallWord, overall);
const refresh = el('button', { id: 'refresh', class: 'secondary', 'data-key': 'refresh', type: 'button' });
const header = el('header');
header.append(title, overallLine, el('span', { class: 'spacer' }), refresh);
/** What the last Re-check found (when, and whether anything changed): a live region (polite), shown under the heading. */
const rechecked = el('p', { id: 'rechecked', class: 'note', role: 'status', 'aria-live': 'polite', hidden: '' });
const notes = el('div', { id: 'notes' });
const systems = el('div', { id: 'systems' });
const write = el('button', {
  id: 'write-marker',
  'data-key': 'write-marker',
  type: 'button',
  'aria-describedby': 'write-reason',
});
/** Why the button cannot be used, or that it can: its description, and a live region (polite). */
const reason = el('p', { id: 'write-reason', role: 'status', 'aria-live': 'polite' });
const actions = el('div', { id: 'actions' });
actions.append(write, reason);
/** The outcome of the last write; focused after it (tabindex -1: reachable by script, not a Tab stop). */
const result = el('div', { id: 'result', tabindex: '-1', hidden: '' });
main.append(header, rechecked, notes, systems, actions, result);
(document.getElementById('app') ?? document.body).replaceWith(main);

let last: ChecklistState | undefined;

/**
 * Keys held down now. The focus never moves while one is: a Space that ticked the last item would
 * otherwise be released on the write button, and a button acts on Space's release — the marker
 * would be written by the tick. The move waits for the release, then happens.
 */
const held = new Set<string>();
let focusWriteOnRelease = false;
window.addEventListener('keydown', (e) => held.add(e.key), true);
window.addEventListener(
  'keyup',
  (e) => {
    held.delete(e.key);
    if (focusWriteOnRelease && held.size === 0) {
      focusWriteOnRelease = false;
      setTimeout(() => write.focus(), 0);
    }
  },
  true,
);
window.addEventListener('blur', () => held.clear());

refresh.addEventListener('click', () => post({ type: 'refresh' }));
write.addEventListener('click', () => {
  if (write.getAttribute('aria-disabled') === 'true') return;
  write.setAttribute('aria-disabled', 'true');
  result.hidden = true;
  result.replaceChildren();
  post({ type: 'writeMarker' });
});

/**
 * A message's parts as nodes: prose as text, each code span as a `code` element holding its text
 * (no backticks shown; a screen reader reads its words). Built with textContent only.
 */
function partNodes(parts: readonly TextPart[]): Node[] {
  return parts.map((p) => (p.code ? el('code', {}, p.text) : document.createTextNode(p.text)));
}

function locationLink(c: CheckView): HTMLAnchorElement | null {
  if (!c.path) return null;
  const text = c.place ?? c.path;
  const a = el('a', { href: '#', class: 'location', 'data-key': `loc:${text}` }, text);
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    post({ type: 'open', path: c.path as string, line: c.line });
  });
  return a;
}

/** A check's row; `s` null: one of the session's manual items, asked once for every system. */
function checkRow(s: SystemView | null, c: CheckView, state: ChecklistState): HTMLLIElement {
  const li = el('li', {
    class: 'check',
    'data-check-id': c.id,
    'data-status': c.status,
    'data-severity': c.severity,
    'data-mark': c.mark,
  });
  li.append(el('span', { class: 'icon', 'aria-hidden': 'true' }, ICON[c.mark] ?? ''));
  const body = el('div', { class: 'body' });
  if (c.severity === 'manual') {
    const system = s?.id ?? null;
    const key = `${system ?? 'session'}:${c.id}`;
    // A session's item says when its tick is reset (its tooltip; the heading above says it too).
    const label = el('label', s ? {} : { title: state.strings.sessionHelp });
    const box = el('input', { type: 'checkbox', 'data-manual': key, 'data-key': `manual:${key}` });
    box.checked = c.status === 'manual-done';
    // The tick is for the session whose ticks the page shows now (the box outlives the redraws).
    box.addEventListener('change', () =>
      post({
        type: 'toggleManual',
        system,
        checkId: c.id,
        checked: box.checked,
        session: last?.ticksFor ?? null,
      }),
    );
    // A system's own item carries the system's id in its name. A screen reader joins neighbouring inline
    // text as it stands, so the words are kept apart by spaces ("S1 You reviewed …").
    if (s)
      label.append(box, el('span', { class: 'id' }, s.id), document.createTextNode(' '), ...partNodes(c.messageParts));
    else label.append(box, ...partNodes(c.messageParts));
    body.append(label);
  } else {
    // Id, message, place and status, each a word apart ("exists .claude/session-ledger.md exists. … pass").
    body.append(el('span', { class: 'id' }, c.id), document.createTextNode(' '), ...partNodes(c.messageParts));
    const link = locationLink(c);
    if (link) body.append(document.createTextNode(' '), link);
    body.append(document.createTextNode(' '), el('span', { class: 'sev' }, c.said));
    if (c.hintParts && c.status !== 'pass' && c.status !== 'skipped') {
      const hint = el('div', { class: 'hint' }, `${state.strings.fix} `);
      hint.append(...partNodes(c.hintParts));
      body.append(hint);
    }
    const rc = state.runChecks;
    if (rc && s && rc.system === s.id && rc.checkId === c.id) body.append(...runChecksPart(rc));
  }
  li.append(body);
  return li;
}

/** The button that runs the repository's own checks (only on this click), and the tail of its last output, as text. */
function runChecksPart(rc: NonNullable<ChecklistState['runChecks']>): HTMLElement[] {
  const b = el('button', { type: 'button', class: 'secondary', 'data-key': 'run-checks' }, rc.button);
  b.setAttribute('aria-disabled', String(rc.running));
  b.addEventListener('click', () => {
    if (b.getAttribute('aria-disabled') === 'true') return;
    b.setAttribute('aria-disabled', 'true');
    post({ type: 'runChecks' });
  });
  const out: HTMLElement[] = [el('div', { class: 'run-checks' })];
  out[0].append(b);
  if (rc.running) out[0].append(el('span', { class: 'note' }, rc.runningText));
  if (rc.output !== null) out.push(el('pre', { class: 'run-output', tabindex: '0' }, rc.output));
  return out;
}

function systemSection(s: SystemView, state: ChecklistState): HTMLElement {
  const sec = el('section', { class: 'system', 'data-system': s.id, 'aria-labelledby': `sys-${s.id}` });
  const h = el('h2', { id: `sys-${s.id}` });
  h.append(
    document.createTextNode(`${s.name} `),
    el('span', { class: `badge label-${s.label}`, 'data-label': s.label }, s.label),
  );
  sec.append(h);
  const meta = el('p', { class: 'meta' }, s.home);
  if (s.next) meta.append(document.createTextNode(` · ${state.strings.next} `), ...partNodes(s.next));
  sec.append(meta);
  const ul = el('ul', { class: 'checks' });
  const checks = [...s.checks].sort((a, b) => (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9));
  for (const c of checks) ul.append(checkRow(s, c, state));
  sec.append(ul);
  return sec;
}

/**
 * The session's manual items, once for every system: a heading, what a tick holds for and when it is
 * reset, and a box each.
 */
function sessionSection(state: ChecklistState): HTMLElement {
  const sec = el('section', { class: 'system session', 'data-system': 'session', 'aria-labelledby': 'sys-session' });
  sec.append(
    el('h2', { id: 'sys-session' }, state.strings.sessionTitle),
    el('p', { class: 'meta', id: 'session-help' }, state.strings.sessionHelp),
  );
  const ul = el('ul', { class: 'checks' });
  for (const c of state.sessionChecks) ul.append(checkRow(null, c, state));
  sec.append(ul);
  return sec;
}

/**
 * That a blocking check fails, and which ones: each takes the focus to its row, which may be far down the
 * page under the passing systems before it (S3's below S0's, S1's and S2's dozens of rows).
 */
function blockedNote(state: ChecklistState): HTMLElement {
  const note = el('div', { class: 'note block', id: 'blocked' });
  note.append(el('p', {}, state.strings.blocked));
  const failing = state.systems.flatMap((s) =>
    s.checks.filter((c) => c.status === 'fail' && c.severity === 'block').map((c) => ({ system: s.id, c })),
  );
  if (!failing.length) return note;
  const ul = el('ul', { class: 'blocking' });
  for (const { system, c } of failing) {
    // A button, not a link: the webview's host scrolls a page to its top on a click of an `href="#"` link.
    const go = el('button', { type: 'button', class: 'link', 'data-key': `blocking:${system}:${c.id}` });
    go.append(
      el('span', { class: 'id' }, `${system} ${c.id}`),
      document.createTextNode(': '),
      ...partNodes(c.messageParts),
    );
    go.addEventListener('click', () => focusCheck(system, c.id));
    const li = el('li');
    li.append(go);
    ul.append(li);
  }
  note.append(ul);
  return note;
}

/** Why the marker cannot be written now (the first reason that holds), or that it can. */
function reasonText(state: ChecklistState): string {
  const s = state.strings;
  if (!state.trusted) return s.untrusted;
  if (state.busy) return s.busy;
  if (state.systems.length === 0) return s.nothing;
  if (state.blocked) return s.blocked;
  if (state.manualOpen > 0) return manualOpenText(s, state.manualOpen);
  return state.canWrite ? s.ready : '';
}

/** Restricted Mode: what it allows, and the button to VS Code's trust editor (the one step that lifts it). */
function untrustedNote(s: ChecklistState['strings']): HTMLElement {
  const b = el('button', { type: 'button', class: 'secondary', 'data-key': 'manage-trust' }, s.manageTrust);
  b.addEventListener('click', () => post({ type: 'manageTrust' }));
  const p = el('p', { class: 'note', id: 'untrusted' }, `${s.untrusted} `);
  p.append(b);
  return p;
}

/** Set a text only when it changed: a live region re-set to the same words would be spoken again. */
function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Make `parent`'s children look like `next`, keeping every node that stays the same kind in place:
 * a redraw must not replace the box that has the focus. A checkbox is ticked by Space on its
 * release, on the element that got the press: replaced between the two (a rescan's redraw while the
 * key is down), the new box gets the focus but not the click, and the tick is lost. Nodes with a
 * `data-key` (the boxes and links, which carry listeners bound to their system and check) are kept
 * only for the same key.
 */
function morph(parent: Element, next: readonly Node[]): void {
  const old = Array.from(parent.childNodes);
  next.forEach((n, i) => {
    const o = old[i];
    if (!o) parent.append(n);
    else if (!sameKind(o, n)) parent.replaceChild(n, o);
    else if (o instanceof Element && n instanceof Element) {
      for (const a of Array.from(o.attributes)) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
      for (const a of Array.from(n.attributes)) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
      if (o instanceof HTMLInputElement && o.checked !== (n as HTMLInputElement).checked)
        o.checked = (n as HTMLInputElement).checked;
      morph(o, Array.from(n.childNodes));
    } else if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
  });
  for (const o of old.slice(next.length)) o.remove();
}

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (!(a instanceof Element && b instanceof Element)) return true;
  return a.tagName === b.tagName && a.getAttribute('data-key') === b.getAttribute('data-key');
}

function render(state: ChecklistState): void {
  const active = document.activeElement as HTMLElement | null;
  const focusKey = active?.getAttribute('data-key');
  const wasManual = !!active?.hasAttribute('data-manual');
  const couldWrite = last?.canWrite ?? false;
  last = state;
  document.title = state.strings.title;

  setText(title, state.folder ? `${state.strings.title} — ${state.folder}` : state.strings.title);
  setText(overallWord, state.overall ? `${state.strings.overall}: ` : '');
  overall.className = `badge label-${state.overall ?? 'none'}`;
  overall.hidden = !state.overall;
  setText(overall, state.overall ?? '');
  setText(refresh, state.strings.refresh);
  setText(write, state.strings.writeMarker);
  write.setAttribute('aria-disabled', String(!state.canWrite));
  setText(reason, reasonText(state));
  reason.className = state.blocked && state.systems.length ? 'note block' : 'note';

  // What holds for the whole page, at its top (not live: the reason below the items is).
  const top: HTMLElement[] = [];
  // Several agent sessions live: the session (and client) the ticks are for.
  if (state.session) top.push(el('p', { class: 'note', id: 'session' }, state.session));
  if (!state.trusted) top.push(untrustedNote(state.strings));
  // A marker still lets /compact through on items unticked here: said before anything else is asked.
  if (state.markerStands) top.push(el('p', { class: 'note block', id: 'marker-stands' }, state.markerStands));
  // Overall PARTIAL while every system says WORKING: the reason, under the overall label.
  if (state.overallWhy) top.push(el('p', { class: 'note', id: 'overall-why' }, state.overallWhy));
  if (state.systems.length === 0) top.push(el('p', { class: 'note' }, state.strings.nothing));
  else if (state.blocked) top.push(blockedNote(state));
  if (state.compactionAdvice !== null)
    top.push(
      el(
        'p',
        { class: 'note', id: 'compaction-advice' },
        (state.strings.compactions ?? '').replace('{0}', String(state.compactionAdvice)),
      ),
    );
  morph(notes, top);
  morph(systems, [
    ...(state.sessionChecks.length ? [sessionSection(state)] : []),
    ...state.systems.map((s) => systemSection(s, state)),
  ]);

  if (state.canWrite && !couldWrite && wasManual) {
    // The last manual item was just ticked: the next step is the button (once the key that ticked it is up).
    if (held.size) focusWriteOnRelease = true;
    else write.focus();
  } else if (focusKey && !main.contains(active)) {
    main.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }
}

function showResult(r: WriteResult): void {
  const strings = last?.strings;
  result.className = `result result-${r.kind}`;
  const text = el('p');
  text.append(...partNodes(r.parts));
  result.replaceChildren(el('h2', {}, strings?.result ?? ''), text);
  result.hidden = false;
  // The outcome of the user's click takes the focus; a result that became past does not take it from where the user is.
  if (r.kind !== 'past') {
    // Shown from its heading (and its focus outline) below the sticky header, whose height wraps with the
    // window, however tall the result is.
    result.style.scrollMarginTop = `${header.offsetHeight + 4}px`;
    result.focus({ preventScroll: true });
    result.scrollIntoView({ block: 'start' });
  }
}

function focusCheck(system: string | null, checkId: string): void {
  const row = document.querySelector<HTMLElement>(
    `section[data-system="${CSS.escape(system ?? 'session')}"] .check[data-check-id="${CSS.escape(checkId)}"]`,
  );
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
  else if (m.type === 'result') showResult(m.result);
  else if (m.type === 'rechecked') {
    rechecked.textContent = m.text;
    rechecked.hidden = false;
  }
});

post({ type: 'ready' });
