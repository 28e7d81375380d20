// Lays out corpus files at their real repository paths in a folder (used by the bench).
// One file per path: for a path that occurs more than once (another commit), the first row wins.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export function corpusRows(corpus) {
  const lines = readFileSync(path.join(corpus, 'INDEX.tsv'), 'utf8').split('\n').filter(Boolean);
  const head = lines.shift().split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [head[i], v])));
}

/** Copy every F1–F5 file whose repo matches `filter` to `dir/<path>`. Returns the paths laid out. */
export function layOut(corpus, dir, filter = () => true) {
  const done = new Set();
  for (const r of corpusRows(corpus)) {
    if (!/^F[1-5]$/.test(r.format) || !filter(r) || done.has(r.path)) continue;
    done.add(r.path);
    const dest = path.join(dir, r.path);
    mkdirSync(path.dirname(dest), { recursive: true });
    copyFileSync(path.join(corpus, r.saved_as), dest);
  }
  return [...done];
}
