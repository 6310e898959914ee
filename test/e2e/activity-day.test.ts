import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ActivityEntrySummary } from '../../shared/activity/views';
import type { ActivityKind } from '../../shared/activity/kinds';
import type { DraftRow } from '../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { sandboxAdmin } from '../support/desk-harness';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import {
  chromiumPart,
  collectPageProblems,
  SCREENSHOT_DIR,
  screenshot,
} from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * A manager's day, every action checked against the activity log as a reviewer would: after each
 * action exactly the entries it should add (kind, strategy, version, in time order), shown live in
 * the profile's Activity view in Chromium, each one readable there (no raw JSON, no true/false,
 * no undefined/null), executions with an outcome line that says what came of them. The paths:
 * a refusal, a timeout retried with the same key, a reset connection dismissed, unknown and stale
 * targets, a service that differed from the prediction, deletes (one already gone), an import,
 * a strategy that does not exist, a profile moved with a new secret, removals.
 */
const withChromium = itNeeds(chromiumPart);
const { coreEquity: CORE, dividendGrowth: DIVIDEND, freshStart: FRESH } = DEMO_STRATEGY_IDS;
const { client_id: CLIENT_ID, client_secret: SECRET } = DEMO_CLIENTS.manager;
/** Short enough for a timeout test, long enough for a loaded machine's ordinary answers. */
const REQUEST_MS = 4_000;
/** Words and marks a reader should never see: raw values leaking through the view. */
const RAW = /\b(undefined|null|true|false|NaN)\b|\[object |\{"/;

type Expected = { kind: ActivityKind; strategyId: string | null; versionId?: string | null };

describe('a manager’s day, every action checked against the activity log', () => {
  let app: BareAppE2E | undefined;
  let profileId = '';
  let baseUrl = '';
  let page: Page;
  let seen: ActivityEntrySummary[] = [];
  let problems: string[] = [];
  let token: string | null = null;
  let listReads = 0;

  beforeAll(async () => {
    if (!chromiumPart.available) return;
    app = await openBareAppE2E({
      stepMs: 20,
      clientOptions: { timeouts: { requestMs: REQUEST_MS } },
    });
    baseUrl = (await app.harness.startSandbox()).baseUrl;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  const desk = () => app!.harness.desk;
  const admin = (method: string, path: string, body?: unknown) =>
    sandboxAdmin(baseUrl, method, path, body);
  const all = async () =>
    (await desk().activity.list({ profileId, offset: 0, limit: 500 })).entries.reverse();

  /** Another client of the same organization, straight over HTTP (not through this app). */
  async function elsewhere(method: string, path: string, body?: unknown) {
    token ??= (
      (await (
        await fetch(`${baseUrl}/api/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: CLIENT_ID,
            client_secret: SECRET,
          }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && {
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    expect(response.status).toBeLessThan(300);
    return response.status === 204 ? null : ((await response.json()) as { data: unknown }).data;
  }

  /**
   * The entries the last action added: exactly these, in this order, after the ones seen so far,
   * at or after the one before them; the view lists them live at the top and each reads plainly.
   */
  async function expectAdded(expected: Expected[]): Promise<ActivityEntrySummary[]> {
    const entries = await all();
    const added = entries.slice(seen.length);
    expect(entries.slice(0, seen.length).map((e) => e.seq)).toEqual(seen.map((e) => e.seq));
    expect(
      added.map((e) => ({
        kind: e.kind,
        strategyId: e.strategyId,
        ...(e.versionId !== null && { versionId: e.versionId }),
      })),
    ).toEqual(
      expected.map((x) => ({
        kind: x.kind,
        strategyId: x.strategyId,
        ...(x.versionId && { versionId: x.versionId }),
      })),
    );
    for (const [i, e] of entries.entries()) {
      expect(e.chainIndex).toBe(i + 1);
      if (i > 0) expect(e.at >= entries[i - 1]!.at).toBe(true);
    }
    seen = entries;
    await expect.poll(() => totalShown()).toBe(entries.length);
    for (const e of added) await readInView(e);
    return added;
  }

  const activityTable = () => page.getByRole('table', { name: 'Activity' });
  const totalShown = async () =>
    Number(((await page.getByTestId('activity-total').textContent()) ?? '').replace(/\D/g, ''));
  const rowOf = (seq: number) => activityTable().locator(`tr[data-seq="${seq}"]`);

  /** The entry's row and its details, as the view shows them now. */
  async function readInView(entry: ActivityEntrySummary) {
    const row = rowOf(entry.seq);
    await row.waitFor();
    const fresh = await desk().activity.get({ seq: entry.seq });
    await expect.poll(() => row.locator('td').last().textContent()).toBe(fresh.outcome ?? '—');
    expect(await row.innerText()).not.toMatch(RAW);
    await row.locator('td').nth(1).getByRole('button').click();
    const details = page.getByRole('region', { name: new RegExp(`#${entry.chainIndex}$`) });
    await details.getByRole('heading', { name: new RegExp(`#${entry.chainIndex}$`) }).waitFor();
    const text = await details.innerText();
    expect(text).not.toMatch(RAW);
    for (const fact of fresh.facts) expect(fact.value).not.toBe('');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    return text;
  }

  const fact = (d: { facts: { label: string; value: string }[] }, label: string) =>
    d.facts.find((f) => f.label === label)?.value;

  async function draftOf(
    strategyId: string,
    name: string,
    start: 'target' | 'empty' | 'holdings',
    edit: (rows: DraftRow[]) => DraftRow[],
  ) {
    const draft = await desk().drafts.create({ profileId, strategyId, name, start });
    await desk().drafts.saveRows({ draftId: draft.id, rows: edit(draft.rows) });
    return draft;
  }

  /** Through the confirmation, as the dialog sends it. */
  async function executeConfirmed(draftId: string, acknowledgedStale = false) {
    const preview = await desk().versions.prepareExecute({ draftId });
    return {
      preview,
      run: desk().versions.execute({
        draftId,
        confirmation: { planKey: preview.planKey, acknowledgedStale, againAfter: null },
      }),
    };
  }

  const ended = (versionId: string) =>
    expect
      .poll(
        async () =>
          (await all()).some((e) => e.kind === 'version-ended' && e.versionId === versionId),
        { timeout: 20_000 },
      )
      .toBe(true);

  withChromium(
    'each action has exactly its entries, live in the view, readable, with what came of it',
    async () => {
      // The check made at start has run (on the empty log) before the day begins.
      await expect.poll(() => desk().activity.lastCheck({})).toMatchObject({ entries: 0 });
      // The profile, its strategies (one that does not exist) and two versions by id.
      const profile = await desk().profiles.create({
        name: 'Day desk',
        baseUrl,
        clientId: CLIENT_ID,
        secret: SECRET,
      });
      profileId = profile.id;
      page = await app!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      problems = collectPageProblems(page);
      page.on('request', (r) => {
        if (r.url().endsWith('/api/activity.list')) listReads++;
      });
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      await page.getByRole('heading', { name: 'Activity', level: 2 }).waitFor();
      // The check at start found an empty log: it says so, not that "0 entries" held.
      await page.getByText(/^Nothing was recorded yet at the last check/).waitFor();
      await expectAdded([{ kind: 'profile-created', strategyId: null }]);

      for (const id of [CORE, DIVIDEND, FRESH])
        await desk().strategies.add({ profileId, strategyId: id });
      await expect(
        desk().strategies.add({ profileId, strategyId: randomUUID() }),
      ).rejects.toMatchObject({ kind: 'not-found' });
      await expectAdded([
        { kind: 'strategy-added', strategyId: CORE },
        { kind: 'strategy-added', strategyId: DIVIDEND },
        { kind: 'strategy-added', strategyId: FRESH },
      ]);
      const scheduled = DEMO_VERSION_IDS.dividendGrowthScheduled;
      await desk().versions.import({
        profileId,
        strategyId: CORE,
        versionId: DEMO_VERSION_IDS.coreEquityExecuted,
      });
      await desk().versions.import({ profileId, strategyId: DIVIDEND, versionId: scheduled });
      const [imported] = await expectAdded([
        {
          kind: 'version-imported',
          strategyId: CORE,
          versionId: DEMO_VERSION_IDS.coreEquityExecuted,
        },
        { kind: 'version-imported', strategyId: DIVIDEND, versionId: scheduled },
      ]);
      expect(fact(await desk().activity.get({ seq: imported!.seq }), 'Status')).toBe('COMPLETE');
      await screenshot(page, 'activity-day-01-setup');

      // 1. Refused by the service (a symbol it does not know), through the confirmation.
      const refusedDraft = await draftOf(CORE, 'Unknown symbol', 'target', (rows) => [
        ...rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '14' } : r)),
        { symbol: 'ZZZZ', weight: '1', locked: false },
      ]);
      const refused = await executeConfirmed(refusedDraft.id);
      await expect(refused.run).rejects.toMatchObject({ status: 422 });
      const [refusedSent, refusal] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(refusedSent!.outcome).toMatch(/^Refused: 422 .*ZZZZ/);
      const refusalDetail = await desk().activity.get({ seq: refusal!.seq });
      expect(fact(refusalDetail, 'Result')).toBe('Refused');
      expect(fact(refusalDetail, 'HTTP status')).toBe('422');
      expect(fact(refusalDetail, 'Service message')).toMatch(/ZZZZ/);
      expect(refusalDetail.refersTo?.seq).toBe(refusedSent!.seq);
      await screenshot(page, 'activity-day-02-refused');

      // 1b. A 400 to an execution sent without the dialog: refused too, the service's words kept.
      const badDraft = await draftOf(CORE, 'Bad request', 'target', (rows) =>
        rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '14.5' } : r)),
      );
      await admin('PUT', '/sandbox/faults', {
        reply_next: {
          status: 400,
          body: JSON.stringify({ errors: { detail: 'The body could not be read.' } }),
        },
      });
      await expect(desk().versions.execute({ draftId: badDraft.id })).rejects.toMatchObject({
        status: 400,
      });
      const [badSent, badAnswer] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(badSent!.outcome).toMatch(/^Refused: 400 /);
      const badDetail = await desk().activity.get({ seq: badAnswer!.seq });
      expect(fact(badDetail, 'HTTP status')).toBe('400');
      expect(fact(badDetail, 'Service message')).toBe('The body could not be read.');
      expect(
        fact(await desk().activity.get({ seq: badSent!.seq }), 'Confirmed in the dialog'),
      ).toBe('No');

      // 2. The scheduled version is deleted.
      await desk().versions.delete({ profileId, strategyId: DIVIDEND, versionId: scheduled });
      const [deleted] = await expectAdded([
        { kind: 'version-deleted', strategyId: DIVIDEND, versionId: scheduled },
      ]);
      const deletedDetail = await desk().activity.get({ seq: deleted!.seq });
      expect(fact(deletedDetail, 'Status')).toBe('SCHEDULED');
      expect(fact(deletedDetail, 'Already gone at the service')).toBe('No');
      expect(deletedDetail.tables.map((t) => t.title)).toContain('Positions');
      expect(deleted!.outcome).toBe('Deleted at the service');

      // 3. A strategy with no version: the target is unknown, confirming acknowledges it.
      const freshDraft = await draftOf(FRESH, 'First target', 'empty', () => [
        { symbol: 'AAPL', weight: '10', locked: false },
      ]);
      const unknownTarget = await executeConfirmed(freshDraft.id);
      expect(unknownTarget.preview.target.kind).toBe('unknown');
      const { version: freshVersion } = await unknownTarget.run;
      await ended(freshVersion.id);
      const [freshSent] = await expectAdded([
        { kind: 'execution-sent', strategyId: FRESH },
        { kind: 'execution-answered', strategyId: FRESH, versionId: freshVersion.id },
        { kind: 'version-ended', strategyId: FRESH, versionId: freshVersion.id },
      ]);
      const freshSentDetail = await desk().activity.get({ seq: freshSent!.seq });
      expect(fact(freshSentDetail, 'Known target')).toMatch(/^Unknown/);
      expect(fact(freshSentDetail, 'Stale or unknown target acknowledged')).toBe('Yes');
      expect(freshSent!.outcome).toMatch(/^Complete: 1 order filled, [\d.]+ filled value$/);

      // 4. The answer never comes (a timeout): unclear, then sent again with the same key.
      const timedDraft = await draftOf(CORE, 'Timed out', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '9' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '14' }
              : r,
        ),
      );
      const readsBefore = listReads;
      await admin('PUT', '/sandbox/faults', { latency_ms: REQUEST_MS + 1_500 });
      await expect(desk().versions.execute({ draftId: timedDraft.id })).rejects.toMatchObject({
        kind: 'timeout',
      });
      await admin('DELETE', '/sandbox/faults');
      const [timedSent, timedAnswer] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
      ]);
      expect(timedSent!.outcome).toMatch(/^Unclear: /);
      expect(fact(await desk().activity.get({ seq: timedAnswer!.seq }), 'Error kind')).toBe(
        'timeout',
      );
      const [unclear] = await desk().versions.journal({ profileId });
      expect(unclear).toMatchObject({ state: 'unknown', draftId: timedDraft.id });
      const retried = await desk().versions.retryExecution({ journalId: unclear!.id });
      await ended(retried.version.id);
      const [retry] = await expectAdded([
        { kind: 'execution-retried', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: retried.version.id },
        { kind: 'version-ended', strategyId: CORE, versionId: retried.version.id },
      ]);
      const timedSentDetail = await desk().activity.get({ seq: timedSent!.seq });
      expect(fact(await desk().activity.get({ seq: retry!.seq }), 'Idempotency-Key')).toBe(
        fact(timedSentDetail, 'Idempotency-Key'),
      );
      expect(timedSentDetail.linked.map((l) => l.kind)).toEqual([
        'execution-answered',
        'execution-retried',
        'execution-answered',
        'version-ended',
      ]);
      expect(timedSentDetail.outcome).toMatch(/^Complete: /);
      // Its row, shown since it was sent, took each new outcome without the list being read again.
      await expect
        .poll(() => rowOf(timedSent!.seq).locator('td').last().textContent())
        .toBe(timedSentDetail.outcome);
      expect(listReads).toBe(readsBefore);
      await screenshot(page, 'activity-day-03-retried');

      // 5. The connection is reset after the service committed: unclear, and dismissed. The
      // service keeps only SPY and AAPL, which this app never learns as a target.
      const resetDraft = await draftOf(CORE, 'Two symbols', 'target', (rows) =>
        rows.map((r) => ({
          ...r,
          weight: r.symbol === 'SPY' ? '40' : r.symbol === 'AAPL' ? '30' : '0',
        })),
      );
      const reset = await executeConfirmed(resetDraft.id);
      await admin('PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
      await expect(reset.run).rejects.toMatchObject({ kind: 'network' });
      const [left] = await desk().versions.journal({ profileId });
      await desk().versions.dismissExecution({ journalId: left!.id });
      const [resetSent] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE },
        { kind: 'execution-dismissed', strategyId: CORE },
      ]);
      expect(resetSent!.outcome).toBe('Dismissed');
      // The service goes on with it all the same.
      await expect
        .poll(
          async () => {
            const strategies = (await admin('GET', '/sandbox/strategies')) as {
              data: { id: string; latest_executed_version_id: string }[];
            };
            const id = strategies.data.find((s) => s.id === CORE)!.latest_executed_version_id;
            return (
              (await elsewhere('GET', `/api/v1/strategies/${CORE}/versions/${id}`)) as {
                status: string;
              }
            ).status;
          },
          { timeout: 20_000 },
        )
        .toBe('COMPLETE');

      // 6. The holdings no longer fit the known target: acknowledged, and the service differs.
      const staleDraft = await draftOf(CORE, 'Back to banks', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '8' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '15' }
              : r,
        ),
      );
      const stale = await executeConfirmed(staleDraft.id, true);
      expect(stale.preview.check?.fits).toBe(false);
      const { version: staleVersion } = await stale.run;
      await ended(staleVersion.id);
      const [staleSent, , staleEnd] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: staleVersion.id },
        { kind: 'version-ended', strategyId: CORE, versionId: staleVersion.id },
      ]);
      const staleSentDetail = await desk().activity.get({ seq: staleSent!.seq });
      expect(fact(staleSentDetail, 'Known target')).toMatch(/^Stale/);
      expect(fact(staleSentDetail, 'Stale or unknown target acknowledged')).toBe('Yes');
      expect(staleSent!.outcome).toMatch(/the service differed from the prediction$/);
      const staleEndDetail = await desk().activity.get({ seq: staleEnd!.seq });
      expect(fact(staleEndDetail, 'Compared with the prediction')).toBe(
        'The service’s positions differed from the prediction',
      );
      const differences = staleEndDetail.tables.find(
        (t) => t.title === 'Differences from the prediction',
      )!;
      expect(differences.rows.map((r) => r[0])).toContain('JPM');
      await activityTable()
        .locator(`tr[data-seq="${staleEnd!.seq}"]`)
        .getByRole('button', { name: 'Rebalance ended' })
        .click();
      await page
        .getByRole('region', { name: /Rebalance ended/ })
        .getByText('Differences from the prediction')
        .waitFor();
      await screenshot(page, 'activity-day-04-differed');
      // Numbers align right; a column with no reason anywhere is text, not numbers.
      const orders = page
        .getByRole('region', { name: /Rebalance ended/ })
        .locator('table', { has: page.locator('caption', { hasText: 'Orders' }) });
      expect(
        await orders
          .getByRole('columnheader', { name: 'Quantity', exact: true })
          .getAttribute('class'),
      ).toMatch(/\bnum\b/);
      expect(
        await orders
          .getByRole('columnheader', { name: 'Reason', exact: true })
          .getAttribute('class'),
      ).not.toMatch(/\bnum\b/);
      // The details themselves, as a reviewer reads them (the page scrolls inside its frame).
      await page
        .getByRole('region', { name: /Rebalance ended/ })
        .screenshot({ path: join(SCREENSHOT_DIR, 'activity-day-04b-differed-details.png') });
      await page.keyboard.press('Escape');

      // 7. A version imported, then deleted by another client, then deleted here: already gone.
      const created = (await admin(
        'POST',
        `/sandbox/strategies/${DIVIDEND}/unexecuted-versions`,
        {},
      )) as {
        data: { id: string };
      };
      const gone = created.data.id;
      await desk().versions.import({ profileId, strategyId: DIVIDEND, versionId: gone });
      await elsewhere('DELETE', `/api/v1/strategies/${DIVIDEND}/versions/${gone}`);
      await desk().versions.delete({ profileId, strategyId: DIVIDEND, versionId: gone });
      const [, goneEntry] = await expectAdded([
        { kind: 'version-imported', strategyId: DIVIDEND, versionId: gone },
        { kind: 'version-deleted', strategyId: DIVIDEND, versionId: gone },
      ]);
      const goneDetail = await desk().activity.get({ seq: goneEntry!.seq });
      expect(fact(goneDetail, 'Already gone at the service')).toBe('Yes');
      expect(fact(goneDetail, 'Status')).toBe('None: no rebalance was started');
      expect(goneEntry!.outcome).toBe('Already gone at the service');
      expect(goneDetail.tables.map((t) => t.title)).toContain('Positions');

      // 7b. The service no longer knows the known target (it started afresh): the dialog asks
      // for the same acknowledgement as a stale target, and the entry keeps it.
      await admin('POST', '/sandbox/reset');
      const afreshDraft = await draftOf(CORE, 'After the reset', 'target', (rows) =>
        rows.map((r) =>
          r.symbol === 'JPM'
            ? { ...r, weight: '7' }
            : r.symbol === 'AAPL'
              ? { ...r, weight: '16' }
              : r,
        ),
      );
      const afresh = await executeConfirmed(afreshDraft.id, true);
      expect(afresh.preview.targetUnconfirmed).toBe(true);
      const { version: afreshVersion } = await afresh.run;
      await ended(afreshVersion.id);
      const [afreshSent] = await expectAdded([
        { kind: 'execution-sent', strategyId: CORE },
        { kind: 'execution-answered', strategyId: CORE, versionId: afreshVersion.id },
        { kind: 'version-ended', strategyId: CORE, versionId: afreshVersion.id },
      ]);
      const afreshSentDetail = await desk().activity.get({ seq: afreshSent!.seq });
      expect(fact(afreshSentDetail, 'Stale or unknown target acknowledged')).toBe('Yes');

      // 8. A draft deleted after its execution: the entry still names it.
      await desk().drafts.remove({ draftId: freshDraft.id });
      const afterDraft = await desk().activity.get({ seq: freshSent!.seq });
      expect(fact(afterDraft, 'Draft')).toBe(`First target (${freshDraft.id})`);
      expect(await all()).toHaveLength(seen.length);

      // 9. The profile moves with a new secret.
      const moved = baseUrl.replace('127.0.0.1', 'localhost');
      await desk().profiles.update({ profileId, baseUrl: moved, secret: SECRET });
      const [changed] = await expectAdded([{ kind: 'profile-changed', strategyId: null }]);
      expect(changed!.summary).toBe(
        `Profile changed: address ${baseUrl} → ${moved}; client secret replaced`,
      );
      const changedDetail = await desk().activity.get({ seq: changed!.seq });
      expect(fact(changedDetail, 'Changed service address')).toBe(`${baseUrl} → ${moved}`);
      expect(fact(changedDetail, 'Client secret replaced')).toBe('Yes');

      // 10. A strategy removed: its entries keep its name, in the view too.
      await desk().strategies.remove({ profileId, strategyId: DIVIDEND });
      await expectAdded([{ kind: 'strategy-removed', strategyId: DIVIDEND }]);
      const dividendRows = seen.filter((e) => e.strategyId === DIVIDEND);
      expect(dividendRows).toHaveLength(6);
      for (const e of dividendRows) {
        expect(e.strategyName).toBe('Dividend Growth');
        // Rows are drawn as they come into view: scroll to its place (newest first).
        const place = seen.length - e.chainIndex;
        await page
          .getByRole('region', { name: /Activity entries/ })
          .evaluate((el, top) => (el.scrollTop = top), place * 30);
        await rowOf(e.seq).waitFor();
        expect(await rowOf(e.seq).locator('td').nth(2).textContent()).toMatch(/Dividend Growth/);
      }
      await screenshot(page, 'activity-day-05-strategy-removed');
      expect(problems).toEqual([]);
      await page.close();

      // Every secret and live token the desk knows, to look for in the log once it is all written.
      const secrets = await desk().knownSecrets();
      expect(secrets).toContain(SECRET);

      // 11. The profile removed: its log is still there, whole, and still verifies.
      await desk().profiles.remove({ profileId });
      const kept = await all();
      expect(kept.slice(0, seen.length)).toEqual(seen);
      expect(kept).toHaveLength(seen.length + 1);
      expect(kept.at(-1)).toMatchObject({ kind: 'profile-removed', profileName: 'Day desk' });
      for (const e of kept) {
        const d = await desk().activity.get({ seq: e.seq });
        expect(`${d.summary} ${d.outcome ?? ''}`).not.toMatch(RAW);
        for (const f of d.facts)
          if (f.label !== 'Body sent') expect(`${f.label}: ${f.value}`).not.toMatch(RAW);
        for (const t of d.tables)
          expect(JSON.stringify(t.rows)).not.toMatch(/undefined|null|true|false/);
      }
      expect(await desk().activity.verify({})).toMatchObject({ ok: true, brokenAt: null });

      // 12. Another profile's Activity still reads the removed one's log, and exports it.
      const evening = await desk().profiles.create({
        name: 'Evening desk',
        baseUrl,
        clientId: CLIENT_ID,
        secret: SECRET,
      });
      expect(await desk().activity.removedProfiles({})).toEqual([
        {
          profileId,
          profileName: 'Day desk',
          entries: kept.length,
          removedAt: kept.at(-1)!.at,
        },
      ]);
      page = await app!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      const logOf = page.getByLabel('Log of');
      expect(await logOf.inputValue()).toBe(evening.id);
      expect(await logOf.locator(`option[value="${profileId}"]`).textContent()).toMatch(
        new RegExp(`^Day desk \\(removed .+, ${kept.length} entries\\)$`),
      );
      await logOf.selectOption(profileId);
      await expect.poll(() => totalShown()).toBe(kept.length);
      const removedEntry = kept.at(-1)!;
      expect(await readInView(removedEntry)).toContain(`Profile “Day desk” removed`);
      await page.getByRole('button', { name: 'Export…' }).click();
      await page.getByRole('button', { name: /Export as JSON Lines/ }).click();
      await page.getByText(`Saved ${kept.length} entries as JSON Lines`).waitFor();
      const exported = readFileSync(
        (await page.getByTestId('activity-export-path').textContent())!.trim(),
        'utf8',
      ).split('\n');
      expect(JSON.parse(exported[0]!)).toMatchObject({
        profileId,
        profileName: 'Day desk',
        entries: kept.length,
      });
      await screenshot(page, 'activity-day-06-removed-profile');
      const db = new Database(desk().store.path, { readonly: true });
      const payloads = (db.prepare('SELECT payload FROM activity').all() as { payload: string }[])
        .map((r) => r.payload)
        .join('\n');
      db.close();
      for (const secret of secrets) {
        expect(payloads).not.toContain(secret);
        expect(exported.join('\n')).not.toContain(secret);
      }
      expect(problems).toEqual([]);
      await page.close();

      // 13. Every profile removed: the first screen still leads to their logs.
      await desk().profiles.remove({ profileId: evening.id });
      page = await app!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
      const leftBehind = page.getByRole('region', { name: 'Activity of removed profiles' });
      await leftBehind.getByText('2 removed profiles left their activity log here').waitFor();
      await leftBehind.getByRole('button', { name: 'Open their activity' }).click();
      // The most recently written log first: the evening's.
      await expect.poll(() => page.getByLabel('Log of').inputValue()).toBe(evening.id);
      await expect.poll(() => totalShown()).toBe(2);
      await page.getByLabel('Log of').selectOption(profileId);
      await expect.poll(() => totalShown()).toBe(kept.length);
      await rowOf(removedEntry.seq).waitFor();
      await screenshot(page, 'activity-day-07-welcome-removed-logs');
      expect(problems).toEqual([]);
      await page.close();
    },
    240_000,
  );
});
