import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering allowlist (eslint.config.js, eslint-rules/layers.js) run through ESLint itself on
 * imports written into files of each layer, and of each sub-layer of the core (an import running
 * up from infrastructure to domain to desk): each wrong one refused, the allowed ones not.
 */
const root = join(__dirname, '..', '..', '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
});

/** The layering refusals ESLint gives for `code` placed at `file` (relative to the root). */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'local/layers').map((m) => m.message);
}

const REFUSED: [layer: string, file: string, code: string][] = [
  ['shared', 'shared/probe.ts', "import '../electron/core/store';"],
  ['shared', 'shared/probe.ts', "import '../renderer/src/lib/format';"],
  ['shared', 'shared/probe.ts', "import 'node:fs';"],
  ['shared', 'shared/probe.ts', "import 'electron';"],
  ['renderer', 'renderer/src/probe.ts', "import '../../electron/transport/dispatch';"],
  ['renderer', 'renderer/src/lib/probe.ts', "import '../../../electron/core/desk';"],
  ['renderer', 'renderer/src/probe.ts', "import 'path';"],
  ['renderer', 'renderer/src/probe.ts', "import 'electron';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../sandbox';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../sandbox/embedded';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../host/index';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../shell/security';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../transport/dispatch';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../ipc';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../../renderer/src/App.svelte';"],
  ['core', 'electron/core/desk/probe.ts', "import 'electron';"],
  ['core', 'electron/core/desk/probe.ts', "export * from '../../host';"],
  ['core', 'electron/core/desk/probe.ts', "export const later = () => import('../../sandbox');"],
  ['core/infrastructure', 'electron/core/store/probe.ts', "import '../reports';"],
  ['core/infrastructure', 'electron/core/store/repositories/probe.ts', "import '../../book';"],
  [
    'core/infrastructure',
    'electron/core/store/repositories/probe.ts',
    "import type { OrderReportColumn } from '../../reports/columns';",
  ],
  ['core/infrastructure', 'electron/core/errors.ts', "import './execution/errors';"],
  ['core/infrastructure', 'electron/core/profiles/probe.ts', "import '../onboarding/sandbox';"],
  ['core/infrastructure', 'electron/core/api/probe.ts', "export * from '../desk/guarded';"],
  ['core/domain', 'electron/core/execution/probe.ts', "import '../desk/events';"],
  ['core/domain', 'electron/core/tracking/probe.ts', "import '../errors'; import '../desk';"],
  ['core/domain', 'electron/core/book/probe.ts', "const later = () => import('../onboarding');"],
  ['core/desk', 'electron/core/desk/probe.ts', "import '../somewhere-new/x';"],
  ['sandbox', 'electron/sandbox/probe.ts', "import '../core/api';"],
  ['sandbox', 'electron/sandbox/probe.ts', "import '../../renderer/src/lib/format';"],
  ['sandbox', 'electron/sandbox/probe.ts', "import '../transport/dispatch';"],
  ['sandbox', 'electron/sandbox/probe.ts', "import 'electron';"],
  ['transport', 'electron/transport/probe.ts', "import '../shell/security';"],
  ['transport', 'electron/transport/probe.ts', "import '../host';"],
  ['transport', 'electron/transport/probe.ts', "import '../sandbox';"],
  ['transport', 'electron/transport/probe.ts', "import 'electron';"],
  ['host', 'electron/host/probe.ts', "import '../ipc';"],
  ['host', 'electron/host/probe.ts', "import '../main';"],
  ['host', 'electron/host/probe.ts', "import '../shell/security';"],
  ['host', 'electron/host/probe.ts', "import '../../renderer/src/lib/format';"],
  ['host', 'electron/host/probe.ts', "import 'electron';"],
  ['shell', 'electron/shell/probe.ts', "import '../core/desk';"],
  ['shell', 'electron/shell/probe.ts', "import '../host';"],
  ['shell', 'electron/shell/probe.ts', "import 'electron';"],
  ['main', 'electron/main.ts', "import '../renderer/src/lib/format';"],
  ['main', 'electron/main.ts', "import './host';"],
  ['main', 'electron/ipc.ts', "import '../test/support/desk-harness';"],
  ['preload', 'electron/preload.ts', "import './core/store';"],
  ['preload', 'electron/preload.ts', "import './ipc';"],
  ['preload', 'electron/preload.ts', "import 'node:fs';"],
  ['scripts', 'scripts/probe.ts', "import '../test/support/desk-harness';"],
  ['scripts', 'scripts/probe.ts', "import '../renderer/src/lib/format';"],
  ['test', 'test/unit/probe.test.ts', "import '../../vite.config';"],
];

const ALLOWED: [layer: string, file: string, code: string][] = [
  ['shared', 'shared/probe.ts', "import './contract'; import 'zod';"],
  ['renderer', 'renderer/src/probe.ts', "import '../../shared/errors'; import './lib/format';"],
  ['core', 'electron/core/desk/probe.ts', "import '../../../shared/contract'; import 'node:fs';"],
  [
    'core/desk',
    'electron/core/desk/probe.ts',
    "import '../onboarding/sandbox'; import '../book'; import '../store'; import '../errors';",
  ],
  ['core/desk', 'electron/core/onboarding/probe.ts', "import '../strategies/sync';"],
  ['core/domain', 'electron/core/book/probe.ts', "import '../models/library'; import '../api';"],
  ['core/domain', 'electron/core/reports/probe.ts', "import '../errors'; import '../store';"],
  ['core/infrastructure', 'electron/core/data-folder/probe.ts', "import '../store';"],
  ['core/infrastructure', 'electron/core/errors.ts', "import './store/errors';"],
  ['sandbox', 'electron/sandbox/probe.ts', "import '../../shared/decimal'; import 'node:http';"],
  ['transport', 'electron/transport/probe.ts', "import '../core/log/redact';"],
  ['host', 'electron/host/probe.ts', "import '../core/desk'; import '../sandbox/embedded';"],
  ['host', 'electron/host/probe.ts', "import '../transport/dispatch';"],
  ['shell', 'electron/shell/probe.ts', "import '../transport/app-identity';"],
  [
    'main',
    'electron/main.ts',
    "import 'electron'; import './shell/security'; import './core/desk';",
  ],
  ['preload', 'electron/preload.ts', "import 'electron'; import './transport/dispatch';"],
  ['scripts', 'scripts/probe.ts', "import '../electron/transport/paths'; import 'node:fs';"],
  [
    'test',
    'test/unit/probe.test.ts',
    "import '../../electron/main'; import '../../renderer/src/lib/format';",
  ],
];

describe('import layering, as an allowlist', () => {
  it.each(REFUSED)('%s: refuses %s importing %s', async (_layer, file, code) => {
    expect(await refusals(file, code)).toHaveLength(1);
  });

  it.each(ALLOWED)('%s: allows %s importing %s', async (_layer, file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });

  it.each([
    ['probe.ts', "import './shared/contract';"],
    ['tools/probe.ts', 'export const probe = 1;'],
    ['eslint-plugins/probe.js', 'export const probe = 1;'],
  ])('reports %s, a source file in no layer, instead of skipping it', async (file, code) => {
    expect(await refusals(file, code)).toEqual([
      `${file} belongs to no layer: add its folder (or the file) to a layer in eslint.config.js (docs/architecture.md).`,
    ]);
  });

  it.each([
    ['eslint.config.js', "import './eslint-rules/layers.js';"],
    ['vite.config.ts', "import 'node:url';"],
    ['vitest.config.ts', 'export const probe = 1;'],
    ['eslint-rules/probe.js', "import './layers.js';"],
  ])("counts the tools' configuration as a layer: %s", async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });

  it('names the layers that may import electron, as the configuration says', async () => {
    expect(await refusals('electron/core/desk/probe.ts', "import 'electron';")).toEqual([
      'core may not import electron: only main (electron/main.ts, electron/ipc.ts), ' +
        'preload (electron/preload.ts), test (test/) do.',
    ]);
  });

  it.each([
    ['electron/core/probe.ts', 'export const probe = 1;'],
    ['electron/core/somewhere-new/probe.ts', "import '../store';"],
  ])('reports %s, a core file in no sub-layer, instead of skipping it', async (file, code) => {
    expect(await refusals(file, code)).toEqual([
      `${file} belongs to no sub-layer of core: add its folder (or the file) to one of ` +
        'infrastructure, domain, desk in eslint.config.js (docs/architecture.md).',
    ]);
  });

  it('names the sub-layers an import may reach and the one it runs up to', async () => {
    expect(await refusals('electron/core/store/probe.ts', "import '../execution';")).toEqual([
      'core/infrastructure may import only from infrastructure: "../execution" runs up to ' +
        'domain (docs/architecture.md).',
    ]);
    expect(await refusals('electron/core/models/probe.ts', "import '../desk/events';")).toEqual([
      'core/domain may import only from infrastructure, domain: "../desk/events" runs up to ' +
        'desk (docs/architecture.md).',
    ]);
  });

  it('names the layer, what it may import and where the import leads', async () => {
    const [message] = await refusals('electron/core/desk/probe.ts', "import '../../sandbox';");
    expect(message).toBe(
      'core may import only from core, shared: "../../sandbox" reaches sandbox (docs/architecture.md).',
    );
  });
});
