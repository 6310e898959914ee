// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import localRules from './eslint-rules/layers.js';

const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * Import layering as an allowlist (docs/architecture.md): for each layer, the layers it may import
 * from; any other import into the repository is refused (eslint-rules/layers.js). Node's modules
 * and `electron` only where a layer says so.
 */
const LAYERS = [
  { name: 'shared', paths: ['shared/'], may: ['shared'] },
  { name: 'renderer', paths: ['renderer/'], may: ['renderer', 'shared'] },
  {
    name: 'core',
    paths: ['electron/core/'],
    may: ['core', 'shared'],
    node: true,
    // From the bottom up: each imports only from itself and the ones before it.
    sublayers: [
      {
        // Files, the database, the service's HTTP, the keychain, the log: no domain word in them.
        name: 'infrastructure',
        paths: [
          'electron/core/errors.ts',
          'electron/core/store/',
          'electron/core/api/',
          'electron/core/secrets/',
          'electron/core/log/',
          'electron/core/csv/',
          'electron/core/files/',
          'electron/core/data-folder/',
          'electron/core/profiles/',
          'electron/core/team/',
          'electron/core/slices/',
        ],
      },
      {
        // What a strategy manager does: strategies, versions, executing, following, the book.
        name: 'domain',
        paths: [
          'electron/core/strategies/',
          'electron/core/versions/',
          'electron/core/execution/',
          'electron/core/tracking/',
          'electron/core/models/',
          'electron/core/book/',
          'electron/core/attention/',
          'electron/core/batches/',
          'electron/core/activity/',
          'electron/core/reports/',
          'electron/core/exports/',
          'electron/core/views/',
          'electron/core/restrictions/',
        ],
      },
      {
        // The contract's handlers, the composition root, and a first launch's sandbox and demo.
        name: 'desk',
        paths: ['electron/core/desk/', 'electron/core/onboarding/'],
      },
    ],
  },
  { name: 'sandbox', paths: ['electron/sandbox/'], may: ['sandbox', 'shared'], node: true },
  {
    name: 'transport',
    paths: ['electron/transport/'],
    may: ['transport', 'core', 'shared'],
    node: true,
  },
  {
    name: 'host',
    paths: ['electron/host/'],
    // The host starts the app: it composes the core and injects the built-in sandbox.
    may: ['host', 'transport', 'core', 'sandbox', 'shared'],
    node: true,
  },
  { name: 'shell', paths: ['electron/shell/'], may: ['shell', 'transport', 'shared'], node: true },
  {
    name: 'main',
    paths: ['electron/main.ts', 'electron/ipc.ts'],
    may: ['main', 'shell', 'transport', 'core', 'sandbox', 'shared'],
    node: true,
    electron: true,
  },
  // Runs in the renderer's sandbox: the bridge to the contract, nothing of the main process.
  { name: 'preload', paths: ['electron/preload.ts'], may: ['transport', 'shared'], electron: true },
  {
    name: 'scripts',
    paths: ['scripts/'],
    may: ['scripts', 'shell', 'transport', 'host', 'core', 'sandbox', 'shared'],
    node: true,
  },
  {
    // The tools' own configuration: the linter, its layering rule, Vite and Vitest.
    name: 'config',
    paths: ['eslint.config.js', 'eslint-rules/', 'vite.config.ts', 'vitest.config.ts'],
    may: ['config'],
    node: true,
  },
  {
    name: 'test',
    paths: ['test/'],
    may: [
      'test',
      'scripts',
      'renderer',
      'main',
      'preload',
      'shell',
      'host',
      'transport',
      'core',
      'sandbox',
      'shared',
    ],
    node: true,
    electron: true,
  },
];

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
  {
    plugins: { local: localRules },
    rules: { 'local/layers': ['error', { root: ROOT, layers: LAYERS }] },
  },
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
                '**/shared/*/contract',
                '**/shared/views',
                '**/shared/errors/wire',
                '**/shared/activity/views',
                '**/shared/domain/resources',
                '**/shared/versions/unexecuted',
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
  {
    // Components render and call stores: where an area has one (the book, the models, the
    // batches), a component does not call that area of the desk itself.
    files: ['renderer/src/**/*.svelte'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['[object.name=/^(api|desk)$/]', "[object.property.name='api']"].map((desk) => ({
          selector: `MemberExpression[property.name=/^(book|models|batches)$/]${desk}`,
          message: 'Call the store (book.svelte.ts, models.svelte.ts, batches.svelte.ts).',
        })),
      ],
    },
  },
  {
    // Browser-side code in the DOM: the renderer's globals are not Node's.
    files: ['shared/**'],
    languageOptions: { globals: {} },
  },
);
