import { randomUUID } from 'node:crypto';
import { KeychainSecretStore, describe, type KeytarApi } from './keychain';
import { classifyKeychainError, keychainFallbackReason } from './remedy';
import { APP_ID, MemorySecretStore, type SecretStore } from './secret-store';

export interface OpenSecretStoreOptions {
  /** Keychain service name; the app id by default, a unique name in tests. */
  service?: string;
  /** How long the probe may take: keytar can hang without a Secret Service. */
  probeTimeoutMs?: number;
  /** Whose fix to name in the reason; the running platform by default. */
  platform?: NodeJS.Platform;
}

/**
 * The keychain when one answers a harmless read in time; otherwise the in-memory store with a
 * fallbackReason that says plainly the secret is kept for this session only, and how to fix it.
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const service = options.service ?? APP_ID;
  const timeoutMs = options.probeTimeoutMs ?? 3000;
  let keytar: KeytarApi;
  try {
    keytar = await loadKeytar();
  } catch (error) {
    return fallback('load', error, options);
  }
  try {
    // A read of an account that never exists: answers null when the keychain works.
    await withTimeout(keytar.getPassword(service, `probe-${randomUUID()}`), timeoutMs);
  } catch (error) {
    return fallback('probe', error, options);
  }
  return new KeychainSecretStore(keytar, service);
}

function fallback(
  stage: 'load' | 'probe',
  error: unknown,
  options: OpenSecretStoreOptions,
): MemorySecretStore {
  const problem = classifyKeychainError(stage, error);
  // The first line only: a missing module's message goes on with a require stack.
  const detail = describe(error).split('\n')[0]!;
  return new MemorySecretStore(
    keychainFallbackReason(problem, detail, options.platform ?? process.platform),
  );
}

async function loadKeytar(): Promise<KeytarApi> {
  // Loaded here, not at the top: keytar is optional and its native part needs libsecret; a
  // missing module must mean "no keychain", not an app that cannot start.
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
