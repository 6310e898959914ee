import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeletePreview } from '../../../shared/versions/unexecuted';
import { DeskError } from '../../../shared/views';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const SCHEDULED = DEMO_VERSION_IDS.dividendGrowthScheduled;

/**
 * Through the real desk, the sandbox over HTTP and SQLite: an unexecuted version is deleted only
 * once it was read and shown (or could not be read and the manager acknowledged that), and it is
 * remembered as in the way from the moment the app learns of it.
 */
describe('an unexecuted version is deleted only once shown', () => {
  let h: DeskHarness;
  let profileId: string;
  const admin = (method: string, path: string, body?: unknown) =>
    sandboxAdmin(h.sandbox()!.baseUrl, method, path, body);
  const atService = async (strategyId: string) =>
    (
      (await admin('GET', '/sandbox/strategies')) as {
        data: { id: string; latest_version_id: string | null }[];
      }
    ).data.find((s) => s.id === strategyId)!.latest_version_id;
  const rejection = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as DeskError,
    );
  const inTheWay = async (strategyId: string) =>
    (await h.desk.strategies.get({ profileId, strategyId })).unexecutedVersions ?? [];
  const latestEntry = async () => {
    const [entry] = (await h.desk.activity.list({ profileId, offset: 0, limit: 1 })).entries;
    return h.desk.activity.get({ seq: entry!.seq });
  };
  const fact = (d: { facts: { label: string; value: string }[] }, label: string) =>
    d.facts.find((f) => f.label === label)?.value;
  const readKey = (p: DeletePreview) => {
    expect(p.state).toBe('read');
    return p.state === 'read' ? p.confirmationKey : '';
  };

  beforeAll(async () => {
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { retry: { baseMs: 5, maxDelayMs: 20 } },
    });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  beforeEach(async () => {
    await admin('DELETE', '/sandbox/faults');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a delete without the confirmation of what was shown, and deletes nothing', async () => {
    const ref = { profileId, strategyId: DIVIDEND, versionId: SCHEDULED };
    const bare = await rejection(h.desk.versions.delete(ref));
    expect(bare).toBeInstanceOf(DeskError);
    expect(bare).toMatchObject({ kind: 'delete-not-confirmed', details: { reason: 'not-shown' } });
    expect(bare!.message).toMatch(/Nothing was deleted/);
    // A key the desk never issued is no confirmation either.
    const forged = await rejection(
      h.desk.versions.delete({
        ...ref,
        confirmation: { key: '11111111-2222-4333-8444-555555555555' },
      }),
    );
    expect(forged).toMatchObject({ kind: 'delete-not-confirmed' });
    // Nor is a key issued for another version.
    const other = (await admin('POST', `/sandbox/strategies/${CORE}/unexecuted-versions`, {})) as {
      data: { id: string };
    };
    const otherKey = readKey(
      await h.desk.versions.prepareDelete({
        profileId,
        strategyId: CORE,
        versionId: other.data.id,
      }),
    );
    expect(
      await rejection(h.desk.versions.delete({ ...ref, confirmation: { key: otherKey } })),
    ).toMatchObject({ kind: 'delete-not-confirmed' });
    expect(await atService(DIVIDEND)).toBe(SCHEDULED);
    expect(
      (await h.desk.activity.list({ profileId, kinds: ['version-deleted'], offset: 0, limit: 5 }))
        .total,
    ).toBe(0);
    await admin('POST', '/sandbox/reset');
  });

  it('remembers the version a refusal names, shows it read fresh with its difference from the draft, and deletes what was shown', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: DIVIDEND,
      name: 'KO down',
      start: 'target',
    });
    const rows = draft.rows.map((r) => (r.symbol === 'KO' ? { ...r, weight: '9' } : r));
    await h.desk.drafts.saveRows({ draftId: draft.id, rows });
    expect(await inTheWay(DIVIDEND)).toEqual([]);
    const refused = await rejection(h.desk.versions.execute({ draftId: draft.id }));
    expect(refused).toMatchObject({
      kind: 'unexecuted-version',
      details: { versionId: SCHEDULED },
    });
    // Named, not read yet: remembered (in SQLite) all the same.
    expect(await inTheWay(DIVIDEND)).toEqual([
      expect.objectContaining({ versionId: SCHEDULED, learnedFrom: 'named', readAt: null }),
    ]);
    await h.restart();
    expect(await inTheWay(DIVIDEND)).toEqual([
      expect.objectContaining({ versionId: SCHEDULED, readAt: null }),
    ]);

    const ref = { profileId, strategyId: DIVIDEND, versionId: SCHEDULED };
    const preview = await h.desk.versions.prepareDelete({ ...ref, draftId: draft.id });
    if (preview.state !== 'read') throw new Error(`read expected, got ${preview.state}`);
    expect(preview.content).toMatchObject({ status: 'SCHEDULED', executedAt: null });
    expect(preview.content.scheduledFor).not.toBeNull();
    const at = (s: string) => preview.content.positions.find((p) => p.symbol === s);
    expect(at('CVX')).toMatchObject({ oldWeight: '0', weight: '8', action: 'ADD' });
    expect(at('XOM')).toMatchObject({ oldWeight: '8', weight: '0', action: 'REMOVE' });
    const differs = Object.fromEntries(
      preview.comparison!.rows.map((r) => [
        r.symbol,
        [r.versionWeight, r.draftWeight, r.difference],
      ]),
    );
    expect(differs).toMatchObject({
      CVX: ['8', '0', 'only-version'],
      XOM: ['0', '8', 'only-draft'],
      KO: ['12', '9', 'weights-differ'],
      JNJ: ['10', '12', 'weights-differ'],
      PG: ['12', '12', 'same'],
    });
    // Now read: the notice has its schedule.
    expect(await inTheWay(DIVIDEND)).toEqual([
      expect.objectContaining({
        versionId: SCHEDULED,
        scheduledFor: preview.content.scheduledFor,
        insertedAt: preview.content.insertedAt,
      }),
    ]);

    await h.desk.versions.delete({ ...ref, confirmation: { key: preview.confirmationKey } });
    expect(await atService(DIVIDEND)).not.toBe(SCHEDULED);
    expect(await inTheWay(DIVIDEND)).toEqual([]);
    const entry = await latestEntry();
    expect(entry.kind).toBe('version-deleted');
    expect(fact(entry, 'Content')).toMatch(/^Read from the service just before deleting/);
    expect(fact(entry, 'Scheduled for')).toBe(preview.content.scheduledFor);
    const positions = entry.tables.find((t) => t.title === 'Positions')!;
    expect(positions.rows).toContainEqual(['CVX', '0', '8', 'ADD']);
    expect(positions.rows).toContainEqual(['XOM', '8', '0', 'REMOVE']);
    // The key is spent: it deletes nothing twice.
    expect(
      await rejection(
        h.desk.versions.delete({ ...ref, confirmation: { key: preview.confirmationKey } }),
      ),
    ).toMatchObject({ kind: 'delete-not-confirmed' });
    await admin('POST', '/sandbox/reset');
  });

  it('refuses to delete a version changed at the service since it was shown', async () => {
    const created = (await admin('POST', `/sandbox/strategies/${CORE}/unexecuted-versions`, {
      positions: [{ symbol: 'AAPL', weight: '20' }],
    })) as { data: { id: string } };
    const ref = { profileId, strategyId: CORE, versionId: created.data.id };
    const first = await h.desk.versions.prepareDelete(ref);
    const key = readKey(first);
    await admin('PUT', `/sandbox/strategies/${CORE}/unexecuted-versions/${created.data.id}`, {
      positions: [{ symbol: 'KO', weight: '30' }],
    });
    const outdated = await rejection(h.desk.versions.delete({ ...ref, confirmation: { key } }));
    expect(outdated).toMatchObject({ kind: 'confirmation-outdated' });
    expect(outdated!.message).toMatch(/Nothing was deleted/);
    expect(await atService(CORE)).toBe(created.data.id);
    // Shown again, it is deleted, and the entry holds what was shown the second time.
    const second = await h.desk.versions.prepareDelete(ref);
    await h.desk.versions.delete({ ...ref, confirmation: { key: readKey(second) } });
    expect(await atService(CORE)).not.toBe(created.data.id);
    const entry = await latestEntry();
    expect(entry.tables.find((t) => t.title === 'Positions')!.rows).toContainEqual([
      'KO',
      '0',
      '30',
      'ADD',
    ]);
    await admin('POST', '/sandbox/reset');
  });

  it('one confirmation deletes once: a second delete sent with it at the same time is refused', async () => {
    const created = (await admin(
      'POST',
      `/sandbox/strategies/${CORE}/unexecuted-versions`,
      {},
    )) as {
      data: { id: string };
    };
    const ref = { profileId, strategyId: CORE, versionId: created.data.id };
    const key = readKey(await h.desk.versions.prepareDelete(ref));
    const both = await Promise.allSettled([
      h.desk.versions.delete({ ...ref, confirmation: { key } }),
      h.desk.versions.delete({ ...ref, confirmation: { key } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: 'delete-not-confirmed' });
    const entries = await h.desk.activity.list({
      profileId,
      strategyId: CORE,
      kinds: ['version-deleted'],
      offset: 0,
      limit: 10,
    });
    expect(entries.entries.filter((e) => e.versionId === created.data.id)).toHaveLength(1);
    await admin('POST', '/sandbox/reset');
  });

  it('a version that cannot be read is deleted only on the acknowledgement, and the entry says so', async () => {
    const created = (await admin(
      'POST',
      `/sandbox/strategies/${CORE}/unexecuted-versions`,
      {},
    )) as {
      data: { id: string };
    };
    const ref = { profileId, strategyId: CORE, versionId: created.data.id };
    await admin('PUT', '/sandbox/faults', { malformed_json_next: 1 });
    const preview = await h.desk.versions.prepareDelete(ref);
    if (preview.state !== 'unreadable') throw new Error(`unreadable expected: ${preview.state}`);
    expect(preview.error.kind).toBe('bad-response');
    const key = preview.confirmationKey;
    expect(
      await rejection(h.desk.versions.delete({ ...ref, confirmation: { key } })),
    ).toMatchObject({
      kind: 'delete-not-confirmed',
      details: { reason: 'unread-not-acknowledged' },
    });
    expect(await atService(CORE)).toBe(created.data.id);
    await h.desk.versions.delete({ ...ref, confirmation: { key, unreadAcknowledged: true } });
    expect(await atService(CORE)).not.toBe(created.data.id);
    const entry = await latestEntry();
    expect(entry.summary).toMatch(/deleted unseen \(it could not be read\)/);
    expect(fact(entry, 'Content')).toMatch(/manager acknowledged deleting it unseen/);
    expect(fact(entry, 'Read error kind')).toBe('bad-response');
    await admin('POST', '/sandbox/reset');
  });

  it('an imported unexecuted version is in the way until an execution is accepted; one found executed is not deletable', async () => {
    const created = (await admin('POST', `/sandbox/strategies/${CORE}/unexecuted-versions`, {
      scheduled_for: '2031-01-02T03:04:05Z',
    })) as { data: { id: string } };
    await h.desk.versions.import({ profileId, strategyId: CORE, versionId: created.data.id });
    // (The first test's version, shown then gone with the sandbox's reset, is still believed.)
    expect(await inTheWay(CORE)).toContainEqual(
      expect.objectContaining({
        versionId: created.data.id,
        learnedFrom: 'imported',
        scheduledFor: '2031-01-02T03:04:05.000000Z',
      }),
    );
    // Gone elsewhere (the demo data again), an execution is accepted: nothing is in the way.
    await admin('POST', '/sandbox/reset');
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Same',
      start: 'target',
    });
    await h.desk.versions.execute({ draftId: draft.id });
    expect(await inTheWay(CORE)).toEqual([]);
    const executed = await h.desk.versions.prepareDelete({
      profileId,
      strategyId: CORE,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    expect(executed.state).toBe('executed');
    expect('confirmationKey' in executed).toBe(false);
  });
});
