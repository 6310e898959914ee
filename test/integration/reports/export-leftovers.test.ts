import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { seedActivity } from '../../support/activity-seed';

const CHILD = fileURLToPath(new URL('./export-child.ts', import.meta.url));
const PARTIAL = /^\..+\.[0-9a-f]{12}\.partial$/;
const partialsIn = (dir: string) => readdirSync(dir).filter((name) => PARTIAL.test(name));

/**
 * Exports killed half-way (SIGKILL, for real) leave their hidden temporary files; the next start
 * removes them, in the default exports folder and in a folder chosen in a save dialog, and
 * nothing else: not a finished export, not another program's file, not a file of that form in a
 * folder the app does not export to by default and never wrote to.
 */
describe('exports a killed process left half-written', () => {
  let dataDir: string;
  let chosenDir: string;
  let elsewhere: string;
  let profileId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-leftovers-'));
    chosenDir = mkdtempSync(join(tmpdir(), 'desk-leftovers-chosen-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'desk-leftovers-elsewhere-'));
    const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    profileId = desk.store.profiles.create({
      name: 'Seeded',
      baseUrl: 'https://service.example.com',
      clientId: 'c',
      environment: 'production',
    }).id;
    // Enough entries that each export reports progress (every 10,000 rows) before it ends.
    seedActivity(desk.store, { profileId, count: 30_000 });
    await desk.close();
  });
  afterAll(() => {
    for (const dir of [dataDir, chosenDir, elsewhere])
      rmSync(dir, { recursive: true, force: true });
  });

  it('are removed at the next start, and only they', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, dataDir, chosenDir, profileId],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, s) => resolve(s)),
    );
    expect([signal, output.trim()]).toEqual(['SIGKILL', 'exporting']);
    const exportsDir = join(dataDir, 'exports');
    expect(partialsIn(exportsDir)).toEqual([expect.stringMatching(/^\.activity\.jsonl\./)]);
    expect(partialsIn(chosenDir)).toEqual([expect.stringMatching(/^\.activity\.csv\./)]);

    // Not the app's to remove: finished work, other files, a look-alike never written by it.
    const kept = [
      join(exportsDir, 'activity (2).jsonl'),
      join(exportsDir, '.notes.partial'),
      join(exportsDir, '.activity.csv.0123456789ab.partial.bak'),
      join(chosenDir, '.orders.csv.abcdefabcdef.partial'),
      join(elsewhere, '.orders.csv.0123456789ab.partial'),
    ];
    for (const path of kept) writeFileSync(path, 'kept\n');
    mkdirSync(join(exportsDir, '.folder.csv.0123456789ab.partial'));

    const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    expect(partialsIn(chosenDir)).toEqual(['.orders.csv.abcdefabcdef.partial']);
    expect(partialsIn(exportsDir)).toEqual(['.folder.csv.0123456789ab.partial']);
    for (const path of kept) expect(readdirSync(join(path, '..'))).toContain(path.split('/').pop());
    // A finished export afterwards leaves nothing behind, and nothing is listed as under way.
    const done = await desk.activity.export({ filter: { profileId }, format: 'jsonl' });
    expect(done?.rows).toBe(30_000);
    expect(partialsIn(exportsDir)).toEqual(['.folder.csv.0123456789ab.partial']);
    expect(desk.store.settings.get('exports.partial')).toBeNull();
    await desk.close();
  }, 120_000);
});
