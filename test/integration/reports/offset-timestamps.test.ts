import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { parseCsv } from '../../support/rfc4180';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
let h: DeskHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The instant `utc` written at `minutes` from UTC, as the sandbox's fault writes it. */
function atOffset(utc: string, minutes: number): string {
  const local = new Date(Date.parse(utc) + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}.${utc.slice(20, 26)}${minutes < 0 ? '-' : '+'}${hhmm}`;
}

/** The version as the sandbox sends it over HTTP, before the app reads it. */
async function rawVersion(base: string, versionId: string): Promise<{ executed_at: string }> {
  const token = await request(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'demo-manager', client_secret: 'demo-secret' }),
  });
  const { access_token } = (await token.body.json()) as { access_token: string };
  const res = await request(`${base}/api/v1/strategies/${CORE}/versions/${versionId}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  return ((await res.body.json()) as { data: { executed_at: string } }).data;
}

describe('a service answering with offset timestamps', () => {
  it('picks the current target, orders the history and files exports by instant', async () => {
    h = await openDeskHarness({ stepMs: 0 });
    const desk = h.desk;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const execute = async (dropFirst: boolean) => {
      const draft = await desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: 'd',
        start: 'target',
      });
      // Dropping a symbol sells it: the version then has orders to export.
      if (dropFirst) await desk.drafts.saveRows({ draftId: draft.id, rows: draft.rows.slice(1) });
      const { version } = await desk.versions.execute({ draftId: draft.id });
      await h!.waitFor(
        (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
      );
      return version.id;
    };
    const earlier = await execute(false);
    const later = await execute(true);

    // The earlier version comes back at +10:00 and the later one at -10:00: as text, the
    // earlier one now looks later, and the later one looks as if executed the day before.
    const base = h.sandbox()!.baseUrl;
    const imported: Record<string, string> = {};
    for (const [versionId, minutes] of [
      [earlier, 600],
      [later, -600],
    ] as const) {
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', { timestamp_offset_minutes: minutes });
      const sent = await rawVersion(base, versionId);
      expect(sent.executed_at).toMatch(minutes > 0 ? /\+10:00$/ : /-10:00$/);
      const version = await desk.versions.import({ profileId, strategyId: CORE, versionId });
      expect(version.executedAt).toMatch(UTC);
      expect(version.insertedAt).toMatch(UTC);
      expect(version.orders.every((o) => UTC.test(o.inserted_at) && UTC.test(o.updated_at))).toBe(
        true,
      );
      imported[versionId] = version.executedAt!;
    }
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { timestamp_offset_minutes: null });
    expect(imported[earlier]! < imported[later]!).toBe(true);

    const strategy = await desk.strategies.get({ profileId, strategyId: CORE });
    expect(strategy.currentTarget?.versionId).toBe(later);
    const history = await desk.versions.list({ profileId, strategyId: CORE });
    expect(history.map((v) => v.id).slice(0, 2)).toEqual([later, earlier]);

    // The later version's UTC day, its bounds given at +02:00 as a host in that zone might.
    const executed = imported[later]!;
    const dayStart = `${executed.slice(0, 10)}T00:00:00.000000Z`;
    const nextDay = new Date(Date.parse(dayStart) + 86_400_000).toISOString().replace('Z', '000Z');
    const result = await desk.reports.exportOrders({
      profileId,
      selection: { kind: 'range', from: atOffset(dayStart, 120), to: atOffset(nextDay, 120) },
    });
    const records = parseCsv(await readFile(result!.path, 'utf8')).slice(1);
    expect(records.length).toBe(result!.rows);
    expect(records.length).toBeGreaterThan(0);
    const versionIds = new Set(records.map((r) => r[2]));
    expect(versionIds.has(later)).toBe(true);
    expect(records.every((r) => r[4]!.slice(0, 10) === dayStart.slice(0, 10))).toBe(true);
    expect(records.every((r) => UTC.test(r[4]!) && UTC.test(r[16]!))).toBe(true);
  });
});
