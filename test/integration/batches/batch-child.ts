// Child process for the batch kill tests: opens the desk on a data folder, reviews the revision
// for the strategies named, prints "reviewed <batchId>", executes it and prints "sending"; the
// parent kills it with SIGKILL at a (seeded) random moment. If it lives, it prints "sent".
import { writeSync } from 'node:fs';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { builtInSandbox } from '../../../electron/sandbox/embedded';

const [dataDir, sandboxUrl, profileId, revisionId, concurrency, ...strategyIds] =
  process.argv.slice(2) as [string, string, string, string, string, ...string[]];
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
const batch = await desk.batches.review({ profileId, revisionId, strategyIds });
writeSync(1, `reviewed ${batch.id}\n`);
await desk.batches.execute({
  batchId: batch.id,
  unticked: [],
  acknowledged: batch.acknowledgementNeeded.map(({ strategyId, fingerprint }) => ({
    strategyId,
    fingerprint,
  })),
  stopAtFirstFailure: false,
  concurrency: Number(concurrency),
});
writeSync(1, 'sending\n');
await desk.batchFlow.sending(batch.id);
writeSync(1, 'sent\n');
await desk.close();
