// Child process for the leftover test: opens the desk on a data folder and exports a profile's
// activity twice at once, the CSV to a folder as if chosen in a save dialog, the JSON Lines to
// the default exports folder; it kills itself (SIGKILL) once both have reported progress, so
// both temporary files exist, half-written.
import { mkdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createDesk } from '../../../electron/core/desk';
import { unusedExportPath } from '../../../electron/core/reports/unused-path';
import { MemorySecretStore } from '../../../electron/core/secrets';

const [dataDir, chosenDir, profileId] = process.argv.slice(2) as [string, string, string];
const desk = await createDesk({
  dataDir,
  secretStore: new MemorySecretStore('test child: no keychain needed'),
  chooseExportPath: async (name) => {
    if (name.endsWith('.csv')) return join(chosenDir, name);
    const exportsDir = join(dataDir, 'exports');
    mkdirSync(exportsDir, { recursive: true });
    return unusedExportPath(exportsDir, name);
  },
});
const reporting = new Set<string>();
desk.subscribe((event) => {
  if (event.type !== 'export-progress' || event.done) return;
  reporting.add(event.exportId);
  if (reporting.size === 2) process.kill(process.pid, 'SIGKILL');
});
writeSync(1, 'exporting\n');
await Promise.all([
  desk.activity.export({ filter: { profileId }, format: 'csv' }),
  desk.activity.export({ filter: { profileId }, format: 'jsonl' }),
]);
writeSync(1, 'finished\n');
await desk.close();
