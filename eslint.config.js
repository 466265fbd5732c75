// Lint rules: typescript-eslint's recommended set plus the project's conventions. Formatting is
// Prettier's and layering is dependency-cruiser's (.dependency-cruiser.cjs); `npm run lint` runs all
// three and the type check of the tests and benchmarks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** One spelling per identifier family (US): normalize, catalog. Data field names (keys) are exempt. */
const SPELLING = {
  selector:
    'Identifier[name=/[Nn]ormalis|[Cc]atalogue/]:not(Property > Identifier.key):not(MemberExpression > Identifier.property):not(TSPropertySignature > Identifier.key)',
  message: 'Spell identifiers normalize… and catalog… (one spelling per identifier family).',
};

/** Production code never asks which test runner is running it. */
const NO_TEST_RUNNER_CHECKS = {
  selector: 'MemberExpression[property.name=/^(VITEST|VITEST_WORKER_ID|VITEST_POOL_ID|JEST_WORKER_ID)$/]',
  message: 'Production code must not test for a test runner; take an option instead.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'bench/results/',
      'docs/api/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
      'docs/.vitepress/.temp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      'no-restricted-syntax': ['error', SPELLING],
    },
  },
  {
    files: ['core/**', 'graph/**', 'embeddings/**', 'workers/**', 'engine/**', 'cli/**', 'index.ts'],
    rules: { 'no-restricted-syntax': ['error', SPELLING, NO_TEST_RUNNER_CHECKS] },
  },
);
