import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { listHashOf } from '../../../electron/core/restrictions';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * Restrictions through the real parts: the desk on a real SQLite file, the built-in sandbox over
 * loopback HTTP. Kept, enforced where every execution is armed, recorded in the execution's
 * activity entry, and checked against the real orders once the rebalance ends.
 */
describe('restrictions', () => {
  let h: DeskHarness;
  let profileId: string;
  const accepted = async (strategyId: string) =>
    (
      (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
        data: { executions_accepted: Record<string, number> };
      }
    ).data.executions_accepted[strategyId] ?? 0;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps rules per profile, strategy and tag; ends them; refuses bad ones in words', async () => {
    const { restrictions } = h.desk;
    // The sandbox profile starts with the demo's one restriction (onboarding).
    const [tsla] = await restrictions.list({ profileId });
    expect(tsla).toMatchObject({
      kind: 'do-not-buy',
      symbol: 'TSLA',
      scope: { type: 'profile' },
      setBy: 'Demo compliance',
      state: 'in-force',
      until: null,
    });
    await restrictions.add({
      profileId,
      kind: 'hold',
      symbol: 'AAPL',
      scope: { type: 'strategy', strategyId: CORE },
      reason: 'Client request',
      setBy: 'ana',
    });
    await restrictions.add({
      profileId,
      kind: 'do-not-sell',
      symbol: 'KO',
      scope: { type: 'tag', tag: 'income' },
      reason: 'Tax lot',
      setBy: 'ben',
    });
    const ended = await restrictions.add({
      profileId,
      kind: 'do-not-buy',
      symbol: 'MSFT',
      scope: { type: 'profile' },
      reason: 'Was briefly restricted',
      setBy: 'ben',
    });
    expect((await restrictions.end({ profileId, restrictionId: ended.id })).state).toBe('over');
    const ending = await rejection(restrictions.end({ profileId, restrictionId: ended.id }));
    expect(ending.kind).toBe('invalid-input');
    expect(ending.message).toMatch(/MSFT is no longer in force/);

    // In force for Core Equity: the profile's and its own (it has no tag income); not the ended.
    const core = await restrictions.inForce({ profileId, strategyId: CORE });
    expect(core.rules.map((r) => r.symbol).sort()).toEqual(['AAPL', 'TSLA']);
    expect(core.held).toContain('AAPL');
    const dividend = await restrictions.inForce({ profileId, strategyId: DIVIDEND });
    expect(dividend.rules.map((r) => r.symbol)).toEqual(['TSLA']);
    expect((await restrictions.list({ profileId })).map((r) => [r.symbol, r.state])).toEqual([
      ['AAPL', 'in-force'],
      ['KO', 'in-force'],
      ['MSFT', 'over'],
      ['TSLA', 'in-force'],
    ]);

    const other = await rejection(
      restrictions.add({
        profileId,
        kind: 'hold',
        symbol: 'AAPL',
        scope: { type: 'strategy', strategyId: '11111111-1111-4111-8111-111111111111' },
        reason: 'x',
        setBy: 'ana',
      }),
    );
    expect(other.kind).toBe('invalid-input');
    expect(other.message).toMatch(/not in this profile/);
    const backwards = await rejection(
      restrictions.add({
        profileId,
        kind: 'hold',
        symbol: 'AAPL',
        scope: { type: 'profile' },
        reason: 'x',
        setBy: 'ana',
        from: '2030-01-02T00:00:00Z',
        until: '2030-01-01T00:00:00Z',
      }),
    );
    expect(backwards.message).toMatch(/Until .* must not come before from/);
  });

  it('refuses an execute with a violation unless each symbol is overridden by name with a note, records the list hash, and finds the restricted orders after the rebalance', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Add Tesla',
      start: 'target',
    });
    const rows = [
      ...draft.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '12' } : r)),
      { symbol: 'TSLA', weight: '5', locked: false },
    ];
    await h.desk.drafts.saveRows({ draftId: draft.id, rows });
    const check = await h.desk.restrictions.checkDraft({ draftId: draft.id });
    expect(check.violations.map((v) => [v.symbol, v.level])).toEqual([
      ['TSLA', 'certain'],
      ['AAPL', 'possible'],
    ]);
    const before = await accepted(CORE);

    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    const confirmation = { planKey: preview.planKey, acknowledgedStale: false, againAfter: null };
    const plain = await rejection(h.desk.versions.execute({ draftId: draft.id, confirmation }));
    expect(plain.kind).toBe('restricted');
    expect(plain.message).toMatch(/for certain on TSLA/);
    expect(plain.message).toMatch(/may break a restriction on AAPL/);
    expect(plain.message).toMatch(/Nothing was sent/);
    expect(plain.details).toEqual({
      violations: [
        { symbol: 'TSLA', level: 'certain' },
        { symbol: 'AAPL', level: 'possible' },
      ],
    });
    // A direct request, past the screens and without a confirmation, is refused the same way.
    const direct = await rejection(
      h.desk.execution.execute({
        profileId,
        strategyId: CORE,
        rows,
        origin: { kind: 'draft', draftId: draft.id },
      }),
    );
    expect(direct.kind).toBe('restricted');
    // Naming TSLA alone leaves AAPL refused.
    const half = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: {
          ...confirmation,
          restrictionOverride: { symbols: ['tsla'], note: 'Approved by the committee' },
        },
      }),
    );
    expect(half.message).toMatch(/AAPL/);
    expect(half.message).not.toMatch(/certain on TSLA/);
    expect(await accepted(CORE)).toBe(before);
    expect(h.desk.execution.inFlight(profileId)).toEqual([]);

    const inForce = await h.desk.restrictions.inForce({ profileId, strategyId: CORE });
    const { journalId, version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: {
        ...confirmation,
        restrictionOverride: { symbols: ['TSLA', 'AAPL'], note: 'Approved by the committee' },
      },
    });
    expect(await accepted(CORE)).toBe(before + 1);
    const seq = h.desk.store.activity.executionSentSeq(journalId)!;
    const payload = JSON.parse(h.desk.store.activity.get(seq)!.payload) as {
      restrictions: unknown;
    };
    const rules = h.desk.store.restrictions
      .list(profileId)
      .filter((r) => inForce.rules.some((v) => v.id === r.id));
    expect(payload.restrictions).toEqual({
      listHash: listHashOf(rules),
      inForce: 2,
      violations: [
        { symbol: 'TSLA', level: 'certain' },
        { symbol: 'AAPL', level: 'possible' },
      ],
      override: { symbols: ['AAPL', 'TSLA'], note: 'Approved by the committee' },
    });
    expect(inForce.listHash).toBe(listHashOf(rules));
    // The activity view's detail says it in words.
    const detail = await h.desk.activity.get({ seq });
    expect(detail.facts).toEqual(
      expect.arrayContaining([
        { label: 'Restrictions in force', value: `2 (list hash ${listHashOf(rules)})` },
        { label: 'Restrictions overridden', value: 'AAPL, TSLA: Approved by the committee' },
      ]),
    );

    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    const findings = await h.desk.restrictions.findings({ profileId, versionId: version.id });
    const bought = findings.find((f) => f.symbol === 'TSLA');
    expect(bought).toMatchObject({
      side: 'BUY',
      restrictionKind: 'do-not-buy',
      overridden: true,
    });
    expect(bought!.message).toMatch(
      /^The rebalance bought [\d.]+ TSLA .*against do not buy \(Demo: the issuer is under compliance review, set by Demo compliance\); overridden when executed: Approved by the committee\.$/,
    );
    expect(findings.every((f) => ['TSLA', 'AAPL'].includes(f.symbol))).toBe(true);
    // What the attention queue reads: one query on restriction_findings by profile.
    const db = new Database(h.desk.store.path, { readonly: true });
    const rows2 = db
      .prepare(
        `SELECT strategy_id, version_id, symbol, side, restriction_kind, overridden, message
         FROM restriction_findings WHERE profile_id = ? ORDER BY found_at, symbol, order_id`,
      )
      .all(profileId) as { strategy_id: string; symbol: string }[];
    db.close();
    expect(rows2.length).toBe(findings.length);
    expect(rows2.every((r) => r.strategy_id === CORE)).toBe(true);
  });

  it('exports every rule as CSV and imports it back; a bad row refuses the whole file, naming line and column', async () => {
    const exported = await h.desk.restrictions.exportCsv({ profileId });
    const text = readFileSync(exported!.path, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('kind,symbol,scope,strategy_or_tag,reason,set_by,from,until');
    expect(exported!.rows).toBe((await h.desk.restrictions.list({ profileId })).length);

    const other = await h.desk.profiles.create({
      name: 'Second desk',
      baseUrl: h.sandbox()!.baseUrl,
      clientId: 'demo-manager',
      secret: 'demo-secret',
    });
    await h.desk.strategies.add({ profileId: other.id, strategyId: CORE });
    const bad = text.replace('do-not-sell,KO,tag,income', 'do-not-sell,KO,tag,');
    const refused = await rejection(
      h.desk.restrictions.importCsv({ profileId: other.id, text: bad, setBy: 'cy' }),
    );
    expect(refused.kind).toBe('invalid-input');
    expect(refused.message).toMatch(
      /^Line 3, column strategy_or_tag: name the tag\. Nothing was imported\.$/,
    );
    const late = text.replace(/,$/m, ',not a date');
    const badDate = await rejection(
      h.desk.restrictions.importCsv({ profileId: other.id, text: late, setBy: 'cy' }),
    );
    expect(badDate.message).toMatch(/^Line 2, column until: Until "not a date" is not a date/);
    expect(await h.desk.restrictions.list({ profileId: other.id })).toEqual([]);

    const { added } = await h.desk.restrictions.importCsv({
      profileId: other.id,
      text,
      setBy: 'cy',
    });
    expect(added).toBe(lines.length - 2);
    const strip = (list: Awaited<ReturnType<typeof h.desk.restrictions.list>>) =>
      list.map(({ id: _id, ...rest }) => rest);
    expect(strip(await h.desk.restrictions.list({ profileId: other.id }))).toEqual(
      strip(await h.desk.restrictions.list({ profileId })),
    );
  });
});
