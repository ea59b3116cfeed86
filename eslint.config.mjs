// ESLint: typescript-eslint's recommended and type-checked rules on every
// TypeScript file tsconfig.json compiles, ESLint's recommended rules on the
// JavaScript scripts. A rule switched off or changed below says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'fetch'].map(
    (name) => [name, 'readonly'],
  ),
);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist.build-*/',
      'dist.old-*/',
      'reports/',
      'action/index.mjs',
      'test/fixtures/',
    ],
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() and describe() return promises that the runner
      // itself awaits; every other promise must be awaited or handled.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // Fastify's handlers and hooks are async so that what they return is
      // the reply (Fastify's documented style), and test doubles implement
      // async interfaces with plain values: an async function need not await.
      '@typescript-eslint/require-await': 'off',
      // Control characters are what the project escapes and refuses on
      // purpose (curl lines, JUnit XML, plant texts): a regular expression
      // that names them is the intent, not a slip.
      'no-control-regex': 'off',
      // A name that starts with an underscore is left unused on purpose (a
      // member taken out of an object by destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'container-test/**/*.ts', 'package-test/**/*.ts'],
    rules: {
      // Tests read answers with JSON.parse (typed any) and assert on their
      // members: a wrong shape fails the assertion, which is the check these
      // rules would add. The sources keep them on.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
