/**
 * The text helpers run each of their patterns only on a text that holds what the pattern removes (a
 * pattern is compiled on its first run): on a fixed sequence of generated texts, each gives what it
 * gives when every pattern runs on every text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMOJI_SOURCE, normalizeTitle } from '../../src/core/markdown/sections';
import { isPlaceholder, plainText } from '../../src/core/markdown/text';

/** `count` texts of 1–7 pieces of `parts`, the same on every run (a linear congruential generator). */
function texts(parts: readonly string[], count = 20_000): string[] {
  let seed = 42;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n) | 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let k = 1 + next(7); k > 0; k--) s += parts[next(parts.length)];
    out.push(s);
  }
  return out;
}

/** The texts on which `gated` and `ungated` differ (the first five). */
function differences(gated: (s: string) => unknown, ungated: (s: string) => unknown, parts: string[]): string[] {
  return texts(parts)
    .filter((s) => gated(s) !== ungated(s))
    .slice(0, 5)
    .map((s) => JSON.stringify(s));
}

test('normalizeTitle: its gates change no result', () => {
  const ungated = (title: string): string => {
    let t = title.slice(0, 500).replace(new RegExp(EMOJI_SOURCE, 'gu'), ' ');
    t = t
      .replace(/<!--.*?-->/g, ' ')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*_~]+/g, ' ');
    t = t.replace(/^\s*(?:§\s*)?\d+(?:\.\d+)*[.)]?\s+/, '');
    for (let k = 0; k < 3; k++) t = t.replace(/\s*[(（\[][^()（）[\]]*[)）\]]\s*$/u, '');
    t = t.replace(/[:：\-–—|·•.]+\s*$/u, '');
    return t.replace(/\s+/g, ' ').trim().toLowerCase();
  };
  const parts = ['Open', 'Questions', ' ', '\u3000', '\t', '1.', '2)', '§4 ', '(x)', '（メモ）', '[a](b)', '`c`', '**'];
  parts.push('_', '~', '<!-- z -->', ':', '：', '—', '|', '·', '.', ']', '[', '(', ')', '✅', '🟢', '次', '3.1 ');
  assert.deepEqual(differences(normalizeTitle, ungated, parts), []);
});

test('plainText and isPlaceholder: their gates change no result', () => {
  const plain = (text: string): string =>
    text
      .replace(/<!--.{0,2000}?-->/g, ' ')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/\*\*|__|~~/g, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/^\s*\[[ xX]\]\s+/, '')
      .replace(/\s+/g, ' ')
      .trim();
  const ONLY =
    /^(?:<[^<>]*>|\{\{[^{}]*\}\}|\[[^\][]*\]|\.\.\.|…|tbd|tba|todo|n\/?a|-+|—|_+|\?+|xxx|placeholder|none yet)$/i;
  const placeholder = (text: string): boolean => {
    let t = plain(text)
      .replace(/^_+|_+$/g, '')
      .trim();
    if (t === '') return true;
    const m = /^([^:：<>]{1,40})[:：]\s*(.*)$/.exec(t);
    if (m) t = m[2].trim();
    if (t === '') return true;
    const rest = t.replace(/<[^<>]*>|\{\{[^{}]*\}\}/g, '').replace(/[\s,/|;·•()\-–—:.`]+/g, '');
    if (rest === '') return true;
    return ONLY.test(t.replace(/[.!。]+$/, ''));
  };
  const parts = ['Goal', 'ship it', ' ', '\t', '- ', '* ', '+ ', '1. ', '2) ', '[ ] ', '[x] ', '`c`', '**', '__'];
  parts.push(
    '~~',
    '<!-- z -->',
    '_',
    ':',
    '：',
    '<goal>',
    '{{x}}',
    'TBD',
    'n/a',
    '...',
    '…',
    '.',
    '!',
    '。',
    '?',
    '—',
    '[a]',
  );
  assert.deepEqual(differences(plainText, plain, parts), []);
  assert.deepEqual(differences(isPlaceholder, placeholder, parts), []);
});
