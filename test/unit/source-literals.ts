/** The string texts of a TypeScript source and the translation tables, for the tests that read what the tool says to users. */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as TS from 'typescript';
import { REPO } from './helpers';

/**
 * The literals of each source parsed in this build of the tests, by its text: kept beside the built tests
 * (out/test/unit, which every build empties), so of the test processes of a run that read every source
 * (no-seed-word, system-names, parentheses-words) one parses them; the others read what it found.
 */
const SAVED = path.join(__dirname, '.literals');
const known = new Map<string, string[]>();

/**
 * The text of every string and template literal of a TypeScript source (a template's literal parts); comments are
 * not read (nor parsed: JSDoc left as comments, which the literals do not hold).
 */
export function literals(file: string, src: string = readFileSync(file, 'utf8')): string[] {
  const key = createHash('sha256').update(path.extname(file)).update('\0').update(src).digest('hex');
  let found = known.get(key);
  if (found) return found;
  const saved = path.join(SAVED, `${key}.json`);
  try {
    found = JSON.parse(readFileSync(saved, 'utf8')) as string[];
  } catch {
    found = parsedLiterals(file, src);
    try {
      mkdirSync(SAVED, { recursive: true });
      const part = `${saved}.${process.pid}`;
      writeFileSync(part, JSON.stringify(found));
      renameSync(part, saved);
    } catch {
      // Not kept (a read-only build): the next process parses it again.
    }
  }
  known.set(key, found);
  return found;
}

/** `literals` from TypeScript's parse of the source (TypeScript loaded only when a source is parsed). */
function parsedLiterals(file: string, src: string): string[] {
  const ts = require('typescript') as typeof TS;
  const out: string[] = [];
  const visit = (n: TS.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateHead(n) ||
      ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n)
    )
      out.push(n.text);
    n.forEachChild(visit);
  };
  visit(
    ts.createSourceFile(
      file,
      src,
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
      false,
    ),
  );
  return out;
}

/** Every translation table the tool ships (the extension's l10n bundles, the manifest's nls files), by its path in the repository. */
export function translationTables(): Array<{ file: string; table: Record<string, string> }> {
  return [
    'l10n/bundle.l10n.ja.json',
    'l10n/bundle.l10n.ko.json',
    'package.nls.json',
    'package.nls.ja.json',
    'package.nls.ko.json',
  ].map((file) => ({ file, table: JSON.parse(readFileSync(path.join(REPO, file), 'utf8')) as Record<string, string> }));
}
