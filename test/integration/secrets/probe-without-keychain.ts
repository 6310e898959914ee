// Run in a child process whose session bus leads nowhere (or where keytar cannot be found):
// libsecret caches its D-Bus connection per process, so the fallback can only be observed in a
// fresh one.
import { openSecretStore } from '../../../electron/core/secrets';

const store = await openSecretStore({ service: process.argv[2] });
await store.set('profile-a', 'session-secret');
const read = await store.get('profile-a');
const deleted = [await store.delete('profile-a'), await store.delete('profile-a')];
process.stdout.write(
  JSON.stringify({ kind: store.kind, fallbackReason: store.fallbackReason, read, deleted }),
);
