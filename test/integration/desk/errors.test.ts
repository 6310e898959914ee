import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listChannels, type DeskHandlers } from '../../../shared/contract';
import { DESK_ERROR_KINDS, DeskError } from '../../../shared/views';
import { toDeskError } from '../../../electron/core/errors';
import { withKeychainFailures } from '../../../electron/core/profiles/secrets';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { StoreError } from '../../../electron/core/store';
import { dispatchCall } from '../../../electron/transport/dispatch';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const CORE_VERSION = DEMO_VERSION_IDS.coreEquityExecuted;
const channel = (name: string) => listChannels().find((c) => c.channel === name)!;
const KINDS: readonly string[] = DESK_ERROR_KINDS;

describe('errors keep their words, through the dispatcher and the real desk', () => {
  let h: DeskHarness;
  let profileId: string;
  const logged: string[] = [];
  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h.close();
  });
  const call = (name: string, input: unknown) =>
    dispatchCall(h.desk as DeskHandlers, channel(name), input, (line) => logged.push(line));

  it('refuses bad input once, as invalid-input naming the field', async () => {
    const result = await call('strategies.get', { profileId, strategyId: 'not-a-uuid' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.kind).toBe('invalid-input');
    expect(!result.ok && result.error.message).toMatch(/strategyId/);
  });

  it('answers random ids for retry, dismiss and get with not-found, never internal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uuid(),
        fc.constantFrom('versions.retryExecution', 'versions.dismissExecution', 'versions.get'),
        async (id, name) => {
          const input =
            name === 'versions.get'
              ? { profileId, strategyId: randomUUID(), versionId: id }
              : { journalId: id };
          const result = await call(name, input);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.error.kind).toBe('not-found');
          expect(result.error.message).not.toMatch(/inside the app/);
        },
      ),
      { numRuns: 60 },
    );
    expect(logged).toEqual([]);
    logged.length = 0;
  });

  it('names a missing export folder as folder-missing, with the folder in words and no system text', async () => {
    const missing = join(h.dataDir, 'no-such-folder');
    const other = await openDeskHarness({
      stepMs: 0,
      chooseExportPath: async (name) => join(missing, name),
    });
    const otherProfile = (await other.desk.profiles.useSandbox({})).id;
    const result = await dispatchCall(
      other.desk as DeskHandlers,
      channel('reports.exportOrders'),
      {
        profileId: otherProfile,
        selection: { kind: 'version', strategyId: CORE, versionId: CORE_VERSION },
      },
      (line) => logged.push(line),
    );
    await other.close();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('folder-missing');
    expect(result.error.message).toContain(missing);
    expect(JSON.stringify(result.error)).not.toMatch(/ENOENT|syscall|errno/);
  });

  it('names a keychain failure as its own kind, and logs the keychain’s words instead', async () => {
    const broken = withKeychainFailures({
      ...new MemorySecretStore(),
      kind: 'keychain',
      fallbackReason: null,
      get: async () => {
        throw new Error('org.freedesktop.Secret.Error.IsLocked: collection is locked');
      },
      set: async () => undefined,
      delete: async () => false,
    });
    const failure = await broken.get('p').catch((e: unknown) => e);
    const lines: string[] = [];
    const error = toDeskError(failure, (line) => lines.push(line));
    expect(error.kind).toBe('keychain-failed');
    expect(error.message).not.toMatch(/freedesktop|locked/);
    expect(lines.join('\n')).toMatch(/IsLocked/);
  });

  it('maps each disk and data-file failure to a named kind, raw text in the log only', () => {
    const fsError = (code: string) =>
      Object.assign(new Error(`${code}: raw system words, open '/x/y'`), { code, syscall: 'open' });
    const cases: [unknown, string][] = [
      [fsError('ENOSPC'), 'disk-full'],
      [fsError('EACCES'), 'no-permission'],
      [fsError('EROFS'), 'read-only'],
      [fsError('ENOENT'), 'folder-missing'],
      [fsError('EBUSY'), 'file-busy'],
      [Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), 'disk-full'],
      [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'file-busy'],
      [new StoreError('store-newer-schema', 'schema 9 > 3'), 'store-newer-schema'],
      [new Error('anything else'), 'internal'],
    ];
    for (const [cause, kind] of cases) {
      const lines: string[] = [];
      const error = toDeskError(cause, (line) => lines.push(line));
      expect(error).toBeInstanceOf(DeskError);
      expect([error.kind, KINDS.includes(error.kind)]).toEqual([kind, true]);
      expect(JSON.stringify(error.toData())).not.toMatch(/raw system|database|9 > 3/);
      expect(lines.length).toBe(1);
    }
  });
});
