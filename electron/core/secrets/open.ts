import { randomUUID } from 'node:crypto';
import { KeychainSecretStore, describe, type KeytarApi } from './keychain';
import { APP_ID, MemorySecretStore, type SecretStore } from './secret-store';

export interface OpenSecretStoreOptions {
  /** Keychain service name; the app id by default, a unique name in tests. */
  service?: string;
  /** How long the probe may take: keytar can hang without a Secret Service. */
  probeTimeoutMs?: number;
}

/**
 * The keychain when one answers a harmless read in time; otherwise the in-memory store with a
 * fallbackReason that says plainly the secret is kept for this session only.
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const service = options.service ?? APP_ID;
  const timeoutMs = options.probeTimeoutMs ?? 3000;
  let problem: string;
  try {
    const keytar = await loadKeytar();
    // A read of an account that never exists: answers null when the keychain works.
    await withTimeout(keytar.getPassword(service, `probe-${randomUUID()}`), timeoutMs);
    return new KeychainSecretStore(keytar, service);
  } catch (error) {
    problem = describe(error);
  }
  return new MemorySecretStore(
    `No keychain answered (${problem}): the secret is kept for this session only.`,
  );
}

async function loadKeytar(): Promise<KeytarApi> {
  // Loaded here, not at the top: without libsecret the native module fails to load, and that
  // must mean "no keychain", not an app that cannot start.
  const mod = (await import('keytar')) as { default?: KeytarApi } & Partial<KeytarApi>;
  const api = mod.default ?? (mod as KeytarApi);
  if (typeof api.getPassword !== 'function') throw new Error('keytar did not load');
  return api;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
