// Child process for the kill test: opens the desk on a data folder and executes one draft,
// printing "sending" first; the parent kills it with SIGKILL at a random moment.
import { writeSync } from 'node:fs';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { builtInSandbox } from '../../../electron/sandbox/embedded';

const [dataDir, sandboxUrl, profileId, draftId] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const secrets = new MemorySecretStore('test child: no keychain needed');
await secrets.set(profileId, process.env.DESK_TEST_SECRET ?? '');
const desk = await createDesk({
  dataDir,
  secretStore: secrets,
  sandbox: {
    ...builtInSandbox,
    start: async () => ({ baseUrl: sandboxUrl, close: async () => undefined }),
  },
});
writeSync(1, 'sending\n');
await desk.versions.execute({ draftId }).then(
  () => writeSync(1, 'accepted\n'),
  (e: unknown) => writeSync(1, `failed ${(e as Error).message}\n`),
);
await desk.close();
