import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const FRESH = DEMO_STRATEGY_IDS.freshStart;

describe('deleting an unexecuted version when the answer is unclear', () => {
  let h: DeskHarness;
  let profileId: string;
  const admin = (method: string, path: string, body?: unknown) =>
    sandboxAdmin(h.sandbox()!.baseUrl, method, path, body);

  /** An unexecuted version made at the service and imported into the desk's history. */
  async function unexecutedVersion(): Promise<string> {
    const created = (await admin('POST', `/sandbox/strategies/${FRESH}/unexecuted-versions`, {
      positions: [{ symbol: 'AAPL', weight: '10' }],
    })) as { data: { id: string } };
    await h.desk.versions.import({ profileId, strategyId: FRESH, versionId: created.data.id });
    return created.data.id;
  }
  /** Every delete is of a version shown first: the key names what was read. */
  async function shown(versionId: string): Promise<string> {
    const preview = await h.desk.versions.prepareDelete({
      profileId,
      strategyId: FRESH,
      versionId,
    });
    expect(preview.state).toBe('read');
    return preview.state === 'read' ? preview.confirmationKey : '';
  }
  const remove = (versionId: string, key: string) =>
    h.desk.versions.delete({ profileId, strategyId: FRESH, versionId, confirmation: { key } });
  const history = async () =>
    (await h.desk.versions.list({ profileId, strategyId: FRESH })).map((v) => v.id);
  const atService = async () =>
    (
      (await admin('GET', '/sandbox/strategies')) as {
        data: { id: string; latest_version_id: string | null }[];
      }
    ).data.find((s) => s.id === FRESH)!.latest_version_id;

  beforeAll(async () => {
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { retry: { baseMs: 5, maxDelayMs: 20 } },
    });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    await h.desk.strategies.add({ profileId, strategyId: FRESH });
  });
  beforeEach(async () => {
    await admin('DELETE', '/sandbox/faults');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a delete that went through but answered 500 with no body leaves no phantom behind', async () => {
    const versionId = await unexecutedVersion();
    const key = await shown(versionId);
    await admin('PUT', '/sandbox/faults', { fail_after_commit_next: 1, fail_status: 500 });
    await expect(remove(versionId, key)).resolves.toEqual({ ok: true });
    expect(await history()).not.toContain(versionId);
    expect(await atService()).toBeNull();
  });

  it('a 5xx before the delete happened keeps the version, here and there, and says so', async () => {
    const versionId = await unexecutedVersion();
    const key = await shown(versionId);
    // The DELETE fails; the read just before it (the version is still what was shown) does not.
    await admin('PUT', '/sandbox/faults', {
      fail_next: 1,
      fail_next_method: 'DELETE',
      fail_status: 503,
    });
    const error = await remove(versionId, key).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeskError);
    expect(error).toMatchObject({ kind: 'server', status: 503 });
    expect(await history()).toContain(versionId);
    expect(await atService()).toBe(versionId);
    // Once the service answers again, the delete goes through on the same confirmation.
    await remove(versionId, key);
    expect(await history()).not.toContain(versionId);
  });

  it('a version gone at the service since it was shown (404 when read again) leaves the history', async () => {
    const versionId = await unexecutedVersion();
    const key = await shown(versionId);
    // Deleted by someone else, straight at the service.
    const base = h.sandbox()!.baseUrl;
    const token = (await (
      await fetch(`${base}/api/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: DEMO_CLIENTS.manager.client_id,
          client_secret: DEMO_CLIENTS.manager.client_secret,
        }),
      })
    ).json()) as { access_token: string };
    const deleted = await fetch(`${base}/api/v1/strategies/${FRESH}/versions/${versionId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(deleted.status).toBe(204);
    expect(await history()).toContain(versionId);
    await remove(versionId, key);
    expect(await history()).not.toContain(versionId);
    // Read found it gone: the entry keeps the content that was shown.
    const [entry] = (await h.desk.activity.list({ profileId, offset: 0, limit: 1 })).entries;
    const detail = await h.desk.activity.get({ seq: entry!.seq });
    expect(detail.facts).toContainEqual({ label: 'Already gone at the service', value: 'Yes' });
    expect(detail.tables.find((t) => t.title === 'Positions')!.rows.map((r) => r[0])).toContain(
      'AAPL',
    );
  });

  it('importing a version that is gone at the service removes the stale copy', async () => {
    const versionId = await unexecutedVersion();
    // The service forgets it (back to the demo data); the desk still lists its copy.
    await admin('POST', '/sandbox/reset');
    expect(await history()).toContain(versionId);
    await expect(
      h.desk.versions.import({ profileId, strategyId: FRESH, versionId }),
    ).rejects.toMatchObject({ kind: 'not-found' });
    expect(await history()).not.toContain(versionId);
  });
});
