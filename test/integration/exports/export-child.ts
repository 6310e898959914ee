// Child process for the kill test: opens the desk on a data folder and exports the book's
// holdings to a folder as if chosen in a save dialog; it kills itself (SIGKILL) once the export
// has told its first progress, so the temporary file exists, not yet renamed.
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { WHOLE_BOOK } from '../../../shared/book/views';

const [dataDir, chosenDir, profileId] = process.argv.slice(2) as [string, string, string];
const desk = await createDesk({
  dataDir,
  secretStore: new MemorySecretStore('test child: no keychain needed'),
  chooseExportPath: async (name) => join(chosenDir, name),
});
desk.subscribe((event) => {
  if (event.type === 'export-progress' && !event.done) process.kill(process.pid, 'SIGKILL');
});
writeSync(1, 'exporting\n');
await desk.book.exportHoldings({ profileId, query: WHOLE_BOOK });
writeSync(1, 'finished\n');
await desk.close();
