// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'child_process',
];

/** Import layering (docs/architecture.md): each runtime folder may only reach what it is allowed to. */
const layer = (
  /** @type {string[]} */ files,
  /** @type {{group: string[], message: string}[]} */ patterns,
) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'coverage/',
      'screenshots/',
      'test-results/',
      '.vite/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  layer(
    ['shared/**'],
    [
      { group: nodeBuiltins, message: 'shared/ runs on both sides: no Node modules.' },
      { group: ['electron', 'electron/*'], message: 'shared/ must not import electron.' },
      { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ imports only shared/.' },
    ],
  ),
  layer(
    ['renderer/**'],
    [
      {
        group: ['electron', 'electron/*'],
        message: 'The renderer talks to the contract, not to electron.',
      },
      { group: ['**/electron/**'], message: 'renderer/ imports only renderer/ and shared/.' },
      { group: nodeBuiltins, message: 'The renderer has no Node modules.' },
    ],
  ),
  {
    // The renderer's JavaScript budget (100 KB gzip) has no room for zod: the hosts parse every
    // payload with the contract's schemas, the renderer takes only types from those modules.
    files: ['renderer/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'zod',
                '**/shared/contract',
                '**/shared/views',
                '**/shared/activity/views',
                '**/shared/domain/resources',
              ],
              allowTypeImports: true,
              message:
                'Types only: use shared/errors, shared/channels and shared/domain/constants for values.',
            },
          ],
        },
      ],
    },
  },
  layer(
    ['electron/core/**', 'electron/sandbox/**', 'electron/host/**'],
    [
      {
        group: ['electron', 'electron/*'],
        message: 'Only main.ts, preload.ts and ipc.ts import electron.',
      },
      { group: ['**/renderer/**'], message: 'The main process does not import the renderer.' },
    ],
  ),
  layer(
    ['electron/sandbox/**'],
    [
      { group: ['electron', 'electron/*'], message: 'The sandbox is plain Node.' },
      {
        group: ['**/core/**', '../core/*'],
        message: 'The sandbox stands apart from the client it simulates.',
      },
    ],
  ),
  {
    // Browser-side code in the DOM: the renderer's globals are not Node's.
    files: ['shared/**'],
    languageOptions: { globals: {} },
  },
);
