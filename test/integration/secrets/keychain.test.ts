import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSecretStore, type SecretStore } from '../../../electron/core/secrets';
import { itNeeds } from '../../support/system-parts';

// A unique service per run: never touches the app's real entries, and cleanup is exact.
const service = `com.strategydesk.test.${randomUUID()}`;
const store = await openSecretStore({ service });
const withKeychain = itNeeds({
  name: 'Secret Service (gnome-keyring)',
  available: store.kind === 'keychain',
  why: store.fallbackReason ?? undefined,
});

describe('the keychain SecretStore', () => {
  const profiles: string[] = [];
  const profile = () => {
    const id = randomUUID();
    profiles.push(id);
    return id;
  };

  afterAll(async () => {
    if (store.kind === 'keychain') for (const id of profiles) await store.delete(id);
  });

  withKeychain('stores, reads, replaces and deletes a secret', async () => {
    const id = profile();
    expect(await store.get(id)).toBeNull();
    await store.set(id, 'first-secret');
    expect(await store.get(id)).toBe('first-secret');
    await store.set(id, 'second-secret');
    expect(await store.get(id)).toBe('second-secret');
    expect(await store.delete(id)).toBe(true);
    expect(await store.get(id)).toBeNull();
  });

  withKeychain('reports false when deleting a secret that is not there', async () => {
    expect(await store.delete(profile())).toBe(false);
  });

  withKeychain('keeps a non-ASCII secret byte for byte', async () => {
    const id = profile();
    const secret = 'sécrèt-Ω-鍵-🔑 "quoted" \\ end';
    await store.set(id, secret);
    expect(await store.get(id)).toBe(secret);
  });

  withKeychain('keeps each profile separate and survives a second opening', async () => {
    const [a, b] = [profile(), profile()];
    await store.set(a, 'secret-a');
    await store.set(b, 'secret-b');
    const reopened: SecretStore = await openSecretStore({ service });
    expect(reopened.kind).toBe('keychain');
    expect(await reopened.get(a)).toBe('secret-a');
    expect(await reopened.get(b)).toBe('secret-b');
    await reopened.delete(a);
    expect(await store.get(a)).toBeNull();
    expect(await store.get(b)).toBe('secret-b');
  });
});

/** openSecretStore in a fresh child process, with the environment and Node flags given. */
function probeInChild(env: NodeJS.ProcessEnv, nodeFlags: string[] = []) {
  const script = fileURLToPath(new URL('./probe-without-keychain.ts', import.meta.url));
  const out = execFileSync(process.execPath, [...nodeFlags, '--import', 'tsx', script, service], {
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return JSON.parse(out) as Record<string, unknown>;
}

const keytarLoads = await import('keytar').then(
  () => true,
  () => false,
);

describe('the memory fallback', () => {
  it('is used, with a plain reason and the fix, when no keychain answers', () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/${randomUUID()}`,
    };
    delete env.DISPLAY;
    const result = probeInChild(env);
    expect(result.kind).toBe('memory');
    // Without keytar itself (a machine without libsecret) the module is named instead.
    expect(result.fallbackReason).toMatch(
      keytarLoads
        ? /^No keychain answered \(.+\): the secret is kept for this session only\. To keep secrets across restarts, sign in to a desktop session with a Secret Service \(GNOME Keyring: sudo apt install gnome-keyring, or KWallet\)\.$/
        : /^The keychain module keytar (is not installed|did not load) \(.+\): the secret is kept for this session only\. To keep secrets across restarts, run sudo apt install libsecret-1-dev .+, then npm (install|rebuild keytar)\.$/,
    );
    expect(result.read).toBe('session-secret');
    expect(result.deleted).toEqual([true, false]);
  });

  it('is used when npm left keytar out, naming the package to install and then npm install', () => {
    const hide = fileURLToPath(new URL('./hide-keytar.mjs', import.meta.url));
    const result = probeInChild(process.env, ['--import', hide]);
    expect(result.kind).toBe('memory');
    expect(result.fallbackReason).toBe(
      "The keychain module keytar is not installed (Cannot find package 'keytar' imported from " +
        `${new URL('../../../electron/core/secrets/open.ts', import.meta.url).href}): the secret is ` +
        'kept for this session only. To keep secrets across restarts, run sudo apt install ' +
        'libsecret-1-dev (Fedora: sudo dnf install libsecret-devel), then npm install.',
    );
    expect(result.read).toBe('session-secret');
  });
});
