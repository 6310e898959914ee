import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ActivityKind } from '../../shared/activity/kinds';
import type { ActivityEntrySummary } from '../../shared/activity/views';
import type { DraftRow } from '../../shared/views';
import { DEMO_CLIENTS } from '../../electron/sandbox';
import { sandboxAdmin } from './desk-harness';
import type { BareAppE2E } from './e2e-app';

/**
 * A manager's day read against the activity log as a reviewer would: what each action added to
 * the log (exactly, in order), and how the profile's Activity view in Chromium shows it.
 */

/** Words and marks a reader should never see: raw values leaking through the view. */
export const RAW = /\b(undefined|null|true|false|NaN)\b|\[object |\{"/;

export type ExpectedEntry = {
  kind: ActivityKind;
  strategyId: string | null;
  versionId?: string | null;
};

/** A fact of an entry's details, by its label. */
export const fact = (d: { facts: { label: string; value: string }[] }, label: string) =>
  d.facts.find((f) => f.label === label)?.value;

export class ActivityDay {
  profileId = '';
  page!: Page;
  /** The profile's log as last checked, oldest first. */
  seen: ActivityEntrySummary[] = [];
  private token: string | null = null;

  constructor(
    readonly app: BareAppE2E,
    readonly baseUrl: string,
  ) {}

  get desk() {
    return this.app.harness.desk;
  }

  admin(method: string, path: string, body?: unknown) {
    return sandboxAdmin(this.baseUrl, method, path, body);
  }

  async all(): Promise<ActivityEntrySummary[]> {
    const page = await this.desk.activity.list({
      profileId: this.profileId,
      offset: 0,
      limit: 500,
    });
    return page.entries.reverse();
  }

  /** Another client of the same organization, straight over HTTP (not through this app). */
  async elsewhere(method: string, path: string, body?: unknown): Promise<unknown> {
    if (this.token === null) {
      const answer = await fetch(`${this.baseUrl}/api/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: DEMO_CLIENTS.manager.client_id,
          client_secret: DEMO_CLIENTS.manager.client_secret,
        }),
      });
      this.token = ((await answer.json()) as { access_token: string }).access_token;
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
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
  async expectAdded(expected: ExpectedEntry[]): Promise<ActivityEntrySummary[]> {
    const entries = await this.all();
    const added = entries.slice(this.seen.length);
    expect(entries.slice(0, this.seen.length).map((e) => e.seq)).toEqual(
      this.seen.map((e) => e.seq),
    );
    // The listed kind is a string (an edited file may hold any); the expected one is known.
    const shape = (e: { kind: string; strategyId: string | null; versionId?: string | null }) => ({
      kind: e.kind,
      strategyId: e.strategyId,
      ...(e.versionId && { versionId: e.versionId }),
    });
    expect(added.map(shape)).toEqual(expected.map(shape));
    for (const [i, e] of entries.entries()) {
      expect(e.chainIndex).toBe(i + 1);
      if (i > 0) expect(e.at >= entries[i - 1]!.at).toBe(true);
    }
    this.seen = entries;
    await expect.poll(() => this.totalShown()).toBe(entries.length);
    for (const e of added) await this.readInView(e);
    return added;
  }

  activityTable() {
    return this.page.getByRole('table', { name: 'Activity' });
  }

  async totalShown(): Promise<number> {
    const text = await this.page.getByTestId('activity-total').textContent();
    return Number((text ?? '').replace(/\D/g, ''));
  }

  rowOf(seq: number) {
    return this.activityTable().locator(`tr[data-seq="${seq}"]`);
  }

  /** The entry's row and its details, as the view shows them now: nothing raw in either. */
  async readInView(entry: ActivityEntrySummary): Promise<string> {
    const row = this.rowOf(entry.seq);
    await row.waitFor();
    const fresh = await this.desk.activity.get({ seq: entry.seq });
    await expect.poll(() => row.locator('td.outcome').textContent()).toBe(fresh.outcome ?? '—');
    expect(await row.innerText()).not.toMatch(RAW);
    await row.locator('td').nth(1).getByRole('button').click();
    const title = new RegExp(`#${entry.chainIndex}$`);
    const details = this.page.getByRole('region', { name: title });
    await details.getByRole('heading', { name: title }).waitFor();
    const text = await details.innerText();
    expect(text).not.toMatch(RAW);
    for (const f of fresh.facts) expect(f.value).not.toBe('');
    await this.page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    return text;
  }

  async draftOf(
    strategyId: string,
    name: string,
    start: 'target' | 'empty' | 'holdings',
    edit: (rows: DraftRow[]) => DraftRow[],
  ) {
    const draft = await this.desk.drafts.create({
      profileId: this.profileId,
      strategyId,
      name,
      start,
    });
    await this.desk.drafts.saveRows({ draftId: draft.id, rows: edit(draft.rows) });
    return draft;
  }

  /** Through the confirmation, as the dialog sends it. */
  async executeConfirmed(draftId: string, acknowledgedStale = false) {
    const preview = await this.desk.versions.prepareExecute({ draftId });
    return {
      preview,
      run: this.desk.versions.execute({
        draftId,
        confirmation: { planKey: preview.planKey, acknowledgedStale, againAfter: null },
      }),
    };
  }

  /** Waits for the version's end to be written. */
  ended(versionId: string) {
    return expect
      .poll(
        async () =>
          (await this.all()).some((e) => e.kind === 'version-ended' && e.versionId === versionId),
        { timeout: 20_000 },
      )
      .toBe(true);
  }
}
