/** The string texts of a TypeScript source and the translation tables, for the tests that read what the tool says to users. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { REPO } from './helpers';

/** `literals` of the sources read from disk, by path: the files that read them all share one parse per process. */
const parsed = new Map<string, string[]>();

/**
 * The text of every string and template literal of a TypeScript source (a template's literal parts); comments are
 * not read (nor parsed: JSDoc left as comments, which the literals do not hold).
 */
export function literals(file: string, src?: string): string[] {
  if (src === undefined) {
    let known = parsed.get(file);
    if (!known) parsed.set(file, (known = literals(file, readFileSync(file, 'utf8'))));
    return known;
  }
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
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
