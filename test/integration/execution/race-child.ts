// Child process for the two-process race: opens the desk on a data folder shared with another
// process and executes the drafts it is told to on stdin ("execute <draft id>"), one answer line
// each: "accepted <version id>" once that version's rebalance ended, or "refused <kind>".
// "quit" closes the desk. A desk that cannot open prints "cannot-start <message>" and exits 3.
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { createDesk, type Desk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { builtInSandbox } from '../../../electron/sandbox/embedded';

const [dataDir, sandboxUrl, profileId] = process.argv.slice(2) as [string, string, string];
const say = (line: string) => writeSync(1, `${line}\n`);
const secrets = new MemorySecretStore('test child: no keychain needed');
await secrets.set(profileId, process.env.DESK_TEST_SECRET ?? '');
let desk: Desk;
try {
  desk = await createDesk({
    dataDir,
    secretStore: secrets,
    ownerName: `race child ${process.pid}`,
    sandbox: {
      ...builtInSandbox,
      start: async () => ({ baseUrl: sandboxUrl, close: async () => undefined }),
    },
    trackerBackoff: { initialMs: 5, factor: 1.5, maxMs: 50 },
  });
} catch (error) {
  say(`cannot-start ${(error as Error).message}`);
  process.exit(3);
}
const events: DeskEvent[] = [];
const waiters = new Set<() => void>();
desk.subscribe((event) => {
  events.push(event);
  for (const wake of [...waiters]) wake();
});
const ended = (versionId: string) =>
  new Promise<void>((resolve) => {
    const check = () => {
      const seen = events.some(
        (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended,
      );
      if (!seen) return;
      waiters.delete(check);
      resolve();
    };
    waiters.add(check);
    check();
  });
// A token before the first race, so both processes meet at the execute itself.
await desk.profiles.testConnection({ profileId });
say('ready');

for await (const line of createInterface({ input: process.stdin })) {
  const [command, draftId] = line.trim().split(' ');
  if (command === 'quit') break;
  if (command !== 'execute' || !draftId) continue;
  try {
    const { version } = await desk.versions.execute({ draftId });
    await ended(version.id);
    say(`accepted ${version.id}`);
  } catch (error) {
    say(`refused ${error instanceof DeskError ? error.kind : String(error)}`);
  }
}
await desk.close();
// stdin is still open: the pipe would keep the process waiting.
process.exit(0);
