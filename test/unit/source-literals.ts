/** The string texts of a TypeScript source, for the tests that read what the code says to users. */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** The text of every string and template literal of a TypeScript source (a template's literal parts); comments are not read. */
export function literals(file: string, src: string = readFileSync(file, 'utf8')): string[] {
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
  visit(ts.createSourceFile(file, src, ts.ScriptTarget.Latest, false));
  return out;
}
