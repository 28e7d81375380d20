// ESLint flat config (`npm run lint`, part of `npm test`): typescript-eslint's recommended rules over the
// TypeScript sources and tests, ESLint's recommended rules over the build, bench and e2e scripts.
// Layout and line length are Prettier's job (prettier.config.mjs), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.run/',
      '.tools/',
      'test-results/',
      '.vscode-test/',
      'examples/',
      'test/fixtures/',
      '.mutation/',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // require() inside a function loads a module only when it is needed, so the status line stays near
      // Node's start-up (measured in `npm run bench`).
      '@typescript-eslint/no-require-imports': 'off',
      // Unused variables, imports and parameters in TypeScript are the type check's to report (tsconfig.json's
      // noUnusedLocals and noUnusedParameters: every .ts file linted here is in its program; a leading
      // underscore marks a parameter left unused on purpose), not a second pass here: the rule took about
      // 3 s of the linter's 15 s of CPU on a fresh clone, the type check reports them at no measurable cost.
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    extends: [js.configs.recommended],
    // Node scripts; the e2e scripts also hand functions to the browser (page.evaluate).
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    rules: {
      // Control characters in a pattern are the point: ledger text is stripped of terminal escapes and controls.
      'no-control-regex': 'off',
      // `let x = null; try { x = … }` is the codebase's way of reading what may fail; tsc proves definite assignment.
      'no-useless-assignment': 'off',
      // An escaped bracket inside a character class ([(\[]) reads as the literal it is.
      'no-useless-escape': 'off',
    },
  },
  {
    // The emoji class lists joiners and variation selectors on purpose: each is stripped on its own.
    files: ['src/core/markdown/sections.ts'],
    rules: { 'no-misleading-character-class': 'off' },
  },
  {
    // Two-step loop bodies written as one comma expression (a diff's walk, a process-tree walk).
    files: ['src/core/hooks/install.ts', 'src/extension/terminals.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
