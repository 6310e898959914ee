import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, seedStrategy, versionResponse } from '../../../support/store-fixtures';

describe('profiles repository', () => {
  let t: ReturnType<typeof openTemp>;
  beforeEach(() => {
    t = openTemp();
  });
  afterEach(() => t.close());

  it('creates, reads, lists, updates and records granted scopes', () => {
    const { profiles } = t.store;
    const b = profiles.create({
      name: 'Production desk',
      baseUrl: 'https://api.example.com',
      clientId: 'prod-client',
      environment: 'production',
    });
    const a = profiles.create({
      name: 'a sandbox',
      baseUrl: 'http://127.0.0.1:4010',
      clientId: 'demo-manager',
      environment: 'sandbox',
    });
    expect(b).toMatchObject({ name: 'Production desk', grantedScopes: null });
    expect(profiles.list().map((p) => p.id)).toEqual([a.id, b.id]);

    expect(profiles.update(b.id, { name: 'Prod' })).toMatchObject({
      name: 'Prod',
      baseUrl: 'https://api.example.com',
    });
    expect(profiles.update('missing', { name: 'x' })).toBeNull();

    expect(profiles.setGrantedScopes(a.id, ['strategies:read', 'strategy_versions:read'])).toBe(
      true,
    );
    expect(profiles.get(a.id)?.grantedScopes).toEqual([
      'strategies:read',
      'strategy_versions:read',
    ]);
    expect(profiles.get('missing')).toBeNull();
  });

  it('refuses an environment it does not know', () => {
    expect(() =>
      t.store.profiles.create({
        name: 'x',
        baseUrl: 'http://x',
        clientId: 'x',
        environment: 'staging' as 'sandbox',
      }),
    ).toThrow(/CHECK constraint/);
  });

  it('deleting a profile removes its strategies, versions, drafts and journal', () => {
    const { store } = t;
    const { profileId, strategyId } = seedStrategy(store);
    const other = seedStrategy(store);
    const version = versionResponse(strategyId);
    store.versions.upsert(profileId, version);
    const draft = store.drafts.create({
      profileId,
      strategyId,
      name: 'Draft',
      rows: [{ symbol: 'AAPL', weight: '10', locked: false }],
    });
    const entry = store.journal.create({
      profileId,
      strategyId,
      draftId: draft.id,
      idempotencyKey: 'key-1',
      requestBody: '{}',
    });

    expect(store.profiles.delete(profileId)).toBe(true);
    expect(store.profiles.delete(profileId)).toBe(false);
    expect(store.strategies.list(profileId)).toEqual([]);
    expect(store.strategies.holdings(profileId, strategyId)).toEqual([]);
    expect(store.versions.get(profileId, version.id)).toBeNull();
    expect(store.versions.orders(profileId, version.id)).toEqual([]);
    expect(store.versions.positions(profileId, version.id)).toEqual([]);
    expect(store.drafts.get(draft.id)).toBeNull();
    expect(store.journal.get(entry.id)).toBeNull();
    // The other profile is untouched.
    expect(store.strategies.get(other.profileId, other.strategyId)?.positions).toHaveLength(2);
  });
});

describe('settings repository', () => {
  let t: ReturnType<typeof openTemp>;
  beforeEach(() => {
    t = openTemp();
  });
  afterEach(() => t.close());

  it('sets, replaces, lists and deletes values', () => {
    const { settings } = t.store;
    expect(settings.get('theme')).toBeNull();
    settings.set('theme', 'dark');
    settings.set('theme', 'light');
    settings.set('activeProfile', 'p1');
    expect(settings.get('theme')).toBe('light');
    expect(settings.all()).toEqual({ activeProfile: 'p1', theme: 'light' });
    expect(settings.delete('theme')).toBe(true);
    expect(settings.delete('theme')).toBe(false);
    expect(settings.all()).toEqual({ activeProfile: 'p1' });
  });
});
