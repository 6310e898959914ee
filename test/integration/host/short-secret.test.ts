import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import {
  DEMO_CLIENTS,
  DEMO_STRATEGY_IDS,
  DEMO_VERSION_IDS,
  startSandbox,
  type RunningSandbox,
} from '../../../electron/sandbox';
import { ensureRendererBuilt } from '../../../electron/host/build-renderer';
import { startCredentialRelay, type CredentialRelay } from '../../support/credential-relay';
import { sandboxAdmin } from '../../support/desk-harness';
import { apiCall } from '../../support/e2e-http';
import { spawnHost, type HostProcess } from '../../support/host-process';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
/** One character: the profile schema allows it, and "1" occurs in nearly every answer. */
const SECRET = '1';

interface Answer {
  ok: boolean;
  value?: unknown;
  error?: Record<string, unknown>;
}

/**
 * A profile whose client secret is "1", against the sandbox (behind a relay that knows it by that
 * secret), through the browser host started as `npm run serve` starts it: every answer carries the
 * app's data as SQLite holds it, and only an echo in the service's own words is redacted.
 */
describe('a one-character client secret rewrites no answer', () => {
  let sandbox: RunningSandbox;
  let relay: CredentialRelay;
  let host: HostProcess;
  let dataDir: string;
  let port: number;
  let auth: Record<string, string>;
  const call = async (channel: string, input: unknown): Promise<Answer> =>
    (await apiCall(port, channel, input, auth)).json() as Answer;
  const rows = <T>(sql: string, ...params: string[]): T[] => {
    const db = new Database(join(dataDir, 'strategy-desk.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    await ensureRendererBuilt();
    sandbox = await startSandbox({ port: 0, stepMs: 0 });
    relay = await startCredentialRelay({
      target: sandbox.baseUrl,
      secret: SECRET,
      sandboxSecret: DEMO_CLIENTS.manager.client_secret,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'desk-short-secret-'));
    host = spawnHost(dataDir);
    const url = new URL(await host.ready);
    port = Number(url.port);
    auth = { Authorization: `Bearer ${url.hash.slice('#token='.length)}` };
  }, 120_000);
  afterAll(async () => {
    await host?.killHard();
    await relay?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ids, holdings and errors cross as SQLite holds them; the profile can be removed', async () => {
    const created = await call('profiles.create', {
      name: 'One',
      baseUrl: relay.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: SECRET,
    });
    expect(created.ok).toBe(true);
    const profileId = (created.value as { id: string }).id;
    expect(rows<{ id: string }>('SELECT id FROM profiles')).toEqual([{ id: profileId }]);

    const added = await call('strategies.add', { profileId, strategyId: CORE });
    expect(added.ok).toBe(true);
    const held = rows<{ symbol: string; quantity: string }>(
      'SELECT symbol, quantity FROM holdings WHERE profile_id = ? ORDER BY symbol',
      profileId,
    );
    expect(held.some((h) => h.quantity.includes('1'))).toBe(true);
    const strategy = (await call('strategies.get', { profileId, strategyId: CORE })).value as {
      holdings: { symbol: string; quantity: string }[];
    };
    expect(
      strategy.holdings
        .map((h) => ({ symbol: h.symbol, quantity: h.quantity }))
        .sort((a, b) => (a.symbol < b.symbol ? -1 : 1)),
    ).toEqual(held);
    expect(JSON.stringify(strategy)).not.toContain('[redacted]');

    const imported = await call('versions.import', {
      profileId,
      strategyId: CORE,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    const positions = rows<{ symbol: string; weight: string }>(
      'SELECT symbol, weight FROM version_positions WHERE version_id = ? ORDER BY symbol',
      DEMO_VERSION_IDS.coreEquityExecuted,
    );
    expect(positions.length).toBeGreaterThan(0);
    expect(imported.value).toMatchObject({
      id: DEMO_VERSION_IDS.coreEquityExecuted,
      positions: expect.arrayContaining(positions.map((p) => expect.objectContaining(p))),
    });

    // An error in the app's words keeps its kind and sentence.
    const missing = await call('strategies.add', {
      profileId,
      strategyId: '11111111-1111-4111-8111-111111111111',
    });
    expect(missing.error).toMatchObject({
      kind: 'not-found',
      message: 'The service does not know this strategy (or it belongs to another organization)',
    });

    // The service's own words echoing the secret: only those are redacted, kind and status kept.
    await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', {
      reply_next: {
        status: 422,
        content_type: 'application/json',
        body: JSON.stringify({ message: 'client secret 1 was echoed' }),
      },
    });
    const draft = (await call('drafts.create', {
      profileId,
      strategyId: CORE,
      name: 'echo',
      start: 'target',
    })) as { value: { id: string } };
    const echoed = await call('versions.execute', { draftId: draft.value.id });
    expect(echoed.error).toMatchObject({
      kind: 'validation',
      status: 422,
      serviceMessage: 'client secret [redacted] was echoed',
    });
    expect(rows<{ error: string }>('SELECT error FROM execution_journal')).toEqual([
      { error: expect.stringContaining('client secret [redacted] was echoed') },
    ]);

    const removed = await call('profiles.remove', { profileId });
    expect(removed).toEqual({ ok: true, value: { ok: true } });
    expect((await call('profiles.list', {})).value).toEqual([]);
    expect(rows('SELECT id FROM profiles')).toEqual([]);
  }, 60_000);
});

describe('the log looks for the secrets of the profiles there are', () => {
  it("stops looking for a profile's secret once the profile is removed, even if the keychain kept it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-short-secret-log-'));
    // A keychain that fails to delete: the profile is gone from the app, its secret still stored.
    const keychain = new MemorySecretStore();
    keychain.delete = async () => {
      throw new Error('The keychain is locked');
    };
    const desk = await createDesk({ dataDir: dir, secretStore: keychain });
    const profile = await desk.profiles.create({
      name: 'One',
      baseUrl: 'https://service.example.com',
      clientId: 'c',
      secret: SECRET,
    });
    desk.log.info('while it exists: 1');
    await expect(desk.profiles.remove({ profileId: profile.id })).rejects.toMatchObject({
      kind: 'keychain-failed',
    });
    expect(await desk.profiles.list({})).toEqual([]);
    expect(await desk.knownSecrets()).toEqual([]);
    desk.log.info('after removal: 1');
    await desk.log.flush();
    const log = readdirSync(desk.log.folder)
      .map((name) => readFileSync(join(desk.log.folder, name), 'utf8'))
      .join('');
    await desk.close();
    rmSync(dir, { recursive: true, force: true });
    expect(log).toContain('while it exists: [redacted]');
    expect(log).toContain('after removal: 1');
  });
});
