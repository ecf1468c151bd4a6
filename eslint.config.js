// ESLint (https://eslint.org) with typescript-eslint's recommended rules, run by `npm run lint`
// beside `astro check` (which type-checks the .astro files tsc cannot read).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', '.astro/', '.folio-builds/', 'bench-out/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore names what is left out on purpose (`{ hash: _hash, ...info }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Configuration files at the root run in Node.
    files: ['*.js', '*.mjs'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    // The scripts served sites run in the reader's browser.
    files: ['src/site/client/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly', matchMedia: 'readonly' } },
  },
);
