// Prettier (`npm run format`, `npm run format:check`): the layout the code is already written in
// (single quotes, semicolons, trailing commas), lines up to 120 characters. TypeScript is parsed with
// Babel's TypeScript parser: the same layout here, with about a quarter less CPU than the TypeScript
// compiler's parser (npm test checks every file on each run).
export default {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  endOfLine: 'lf',
  overrides: [{ files: ['*.ts', '*.mts', '*.cts'], options: { parser: 'babel-ts' } }],
};
