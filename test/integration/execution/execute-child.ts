// Child process for the kill tests: opens the desk on a data folder and executes one draft,
// printing "sending" first; the parent kills it with SIGKILL at a random moment, or the child
// kills itself at a named step (DESK_TEST_DIE): "before-accepted", once the 202 is in and the
// version being stored, before the journal says accepted; "after-accepted", as soon as the
// journal's accepted write committed, before anything that follows it runs.
import { writeSync } from 'node:fs';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { teamSecretKey } from '../../../electron/core/team/connection';
import { builtInSandbox } from '../../../electron/sandbox/embedded';

const [dataDir, sandboxUrl, profileId, draftId] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const secrets = new MemorySecretStore('test child: no keychain needed');
await secrets.set(profileId, process.env.DESK_TEST_SECRET ?? '');
// A profile in a team: its member's password, as the keychain holds it (team/connection.ts).
if (process.env.DESK_TEST_TEAM_PASSWORD)
  await secrets.set(teamSecretKey(profileId), process.env.DESK_TEST_TEAM_PASSWORD);
const desk = await createDesk({
  dataDir,
  secretStore: secrets,
  sandbox: {
    ...builtInSandbox,
    start: async () => ({ baseUrl: sandboxUrl, close: async () => undefined }),
  },
});
const die = process.env.DESK_TEST_DIE;
if (die === 'before-accepted' || die === 'after-accepted') {
  const journal = desk.store.journal;
  const markAccepted = journal.markAccepted.bind(journal);
  journal.markAccepted = (id, result, alongside) => {
    if (die === 'before-accepted') {
      alongside?.();
      process.kill(process.pid, 'SIGKILL');
    }
    const entry = markAccepted(id, result, alongside);
    // Runs once the transaction around this write committed, before the awaits after it resume.
    queueMicrotask(() => process.kill(process.pid, 'SIGKILL'));
    return entry;
  };
}
writeSync(1, 'sending\n');
await desk.versions.execute({ draftId }).then(
  () => writeSync(1, 'accepted\n'),
  (e: unknown) => writeSync(1, `failed ${(e as Error).message}\n`),
);
await desk.close();
