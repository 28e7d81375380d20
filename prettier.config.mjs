// Prettier (`npm run format`, `npm run format:check`): the layout the code is already written in
// (single quotes, semicolons, trailing commas), lines up to 120 characters.
export default {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  endOfLine: 'lf',
};
