import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import type { DeskEvent } from '../../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { teamSecretKey } from '../../../electron/core/team/connection';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';
import { refusal } from '../../support/refusal';

/**
 * A desk joining its team store, through the real parts: the desk on a real SQLite file with the
 * built-in sandbox over HTTP, a throwaway PostgreSQL cluster, and the other member (bob, an
 * approver) at his own PostgreSQL login in raw SQL, as his desk would be.
 */

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const team = useTeamDatabase();
const db = () => team.current!;

describe('a desk in a team, on PostgreSQL', () => {
  let h: DeskHarness;
  let profileId: string;
  let bob: Client;
  let owner: Client;

  const accepted = async () =>
    (
      (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
        data: { executions_accepted: Record<string, number> };
      }
    ).data.executions_accepted[CORE] ?? 0;
  const joinAs = (member: string, password: string, port = db().cluster.port) =>
    h.desk.team.join({
      profileId,
      host: '127.0.0.1',
      port,
      database: db().database,
      member,
      password,
      caFile: null,
    });
  /** A draft of the core strategy's known target with its first weight at `weight`, confirmed. */
  async function confirmedDraft(weight: string) {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: `Weight ${weight}`,
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r, i) => ({ ...r, weight: i === 0 ? weight : r.weight })),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    return { draftId: draft.id, planKey: preview.planKey };
  }
  const execute = (d: { draftId: string; planKey: string }) =>
    h.desk.versions.execute({
      draftId: d.draftId,
      confirmation: { planKey: d.planKey, acknowledgedStale: true, againAfter: null },
    });
  const claims = async () =>
    (await owner.query<{ strategy_id: string }>('SELECT strategy_id FROM team.claims')).rows;
  const logKinds = async (after: number) =>
    (
      await owner.query<{ kind: string }>(
        'SELECT kind FROM team.activity WHERE seq > $1 ORDER BY seq',
        [after],
      )
    ).rows.map((r) => r.kind);
  const lastSeq = async () =>
    Number((await owner.query('SELECT coalesce(max(seq), 0) AS s FROM team.activity')).rows[0].s);
  const settledReleases = () =>
    (h.desk as unknown as { teams: { teamOf(id: string): unknown } }).teams;

  beforeAll(async () => {
    if (!team.current) return;
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('bob', ['approver']);
    bob = await db().as('bob');
    owner = await db().owner();
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('joins with the member’s own login: a wrong password or no server is said in words, nothing kept', async () => {
    const wrong = await refusal(joinAs('alice', 'not-the-password'));
    expect(wrong.kind).toBe('team-refused');
    expect(wrong.message).toMatch(/refused this member's login/);
    const nobody = await refusal(joinAs('alice', MEMBER_PASSWORD, 1));
    expect(nobody.kind).toBe('team-unavailable');
    expect(nobody.message).toMatch(/cannot be reached .*needed to join the team/);
    expect(h.desk.store.teams.get(profileId)).toBeNull();
    expect(await h.secrets.get(teamSecretKey(profileId))).toBeNull();

    const joined = await joinAs('alice', MEMBER_PASSWORD);
    expect(joined).toMatchObject({ member: 'alice', database: db().database, caFile: null });
    expect((await h.desk.team.get({ profileId })).team).toEqual(joined);
    // The password is in the keychain, never in the data file.
    expect(await h.secrets.get(teamSecretKey(profileId))).toBe(MEMBER_PASSWORD);
    const file = readFileSync(h.desk.store.path);
    expect(file.includes(Buffer.from(MEMBER_PASSWORD))).toBe(false);
    const { members, policy } = await h.desk.team.members({ profileId });
    expect(members.map((m) => [m.login, m.roles])).toEqual([
      ['alice', ['drafter', 'trader']],
      ['bob', ['approver']],
    ]);
    expect(policy).toEqual({ policy: 'every', approvalHours: 24 });
    // Its pool connects as the member: the database knows who acts.
    const pool = await h.desk.teams.teamPool(profileId);
    expect((await pool!.query('SELECT session_user AS who')).rows[0].who).toBe('alice');
  });

  it('executes only content another member approved, once; the claim taken and released', async () => {
    const before = await accepted();
    const seq = await lastSeq();
    const unapproved = await confirmedDraft('4');
    const required = await refusal(execute(unapproved));
    expect(required.kind).toBe('approval-required');
    expect(required.message).toMatch(/needs an approval by another member.*Nothing was sent/);
    expect(await accepted()).toBe(before);
    expect(h.desk.store.journal.listInFlight(profileId)).toEqual([]);
    expect(await claims()).toEqual([]);

    const submitted = await h.desk.team.submit(unapproved);
    expect(submitted).toMatchObject({ state: 'submitted', submittedBy: 'alice', subject: CORE });
    // The approver reads the weights it would send.
    expect(submitted.positions.map((p) => p.weight)).toContain('4');
    const seen = h.waitFor(
      (e) => e.type === 'team-changed' && e.topic === 'submission' && e.key === submitted.id,
    );
    // Bob, the approver, at his own login.
    await bob.query("SELECT team.decide($1, true, 'fine', 'desk-bob')", [submitted.id]);
    await seen;
    const waiting = await h.desk.team.submissions({ profileId });
    expect(waiting.find((s) => s.id === submitted.id)).toMatchObject({
      state: 'approved',
      decidedBy: 'bob',
      note: 'fine',
    });
    // The submitter cannot decide: refused in words.
    const own = await h.desk.team.submit(await confirmedDraft('5'));
    const self = await refusal(
      h.desk.team.decide({ profileId, submissionId: own.id, approve: true, note: '' }),
    );
    expect(self.kind).toBe('team-refused');

    const outcome = await execute(unapproved);
    expect(h.desk.store.journal.get(outcome.journalId)?.state).toBe('accepted');
    expect(await accepted()).toBe(before + 1);
    const used = await owner.query('SELECT state, used_by FROM team.submissions WHERE id = $1', [
      submitted.id,
    ]);
    expect(used.rows[0]).toEqual({ state: 'used', used_by: 'alice' });
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === outcome.version.id && e.ended,
    );
    await expect.poll(claims, { timeout: 5000 }).toEqual([]);
    // The refused send took the claim before reading fresh, and gave it back before saying no.
    expect(await logKinds(seq)).toEqual([
      'claim.taken',
      'claim.released',
      'approval.submitted',
      'approval.approved',
      'approval.submitted',
      'claim.taken',
      'approval.used',
      'version.executed',
      'claim.released',
    ]);
    const { rows: executed } = await owner.query(
      "SELECT member, strategy_id, version_id, payload FROM team.activity WHERE kind = 'version.executed'",
    );
    expect(executed).toEqual([
      {
        member: 'alice',
        strategy_id: CORE,
        version_id: outcome.version.id,
        payload: JSON.stringify({
          idempotencyKey: h.desk.store.journal.get(outcome.journalId)!.idempotencyKey,
        }),
      },
    ]);
    expect(settledReleases().teamOf(profileId)).not.toBeNull();
  });

  it('reads one submission whatever its age: the list holds only the latest decided', async () => {
    const old = await h.desk.team.submit(await confirmedDraft('6'));
    await bob.query("SELECT team.decide($1, false, 'not today', 'desk-bob')", [old.id]);
    // Fifty-one later decisions push it out of the list a screen shows.
    for (let i = 0; i < 51; i++) {
      const { rows } = await owner.query<{ id: string }>(
        "SELECT team.submit('draft', $1, 'Later', '{}', 'desk-owner') AS id",
        [`later-${i}`],
      );
      await bob.query("SELECT team.decide($1, true, '', 'desk-bob')", [rows[0]!.id]);
    }
    const listed = await h.desk.team.submissions({ profileId });
    expect(listed.some((s) => s.id === old.id)).toBe(false);
    expect(await h.desk.team.submission({ profileId, submissionId: old.id })).toMatchObject({
      id: old.id,
      state: 'rejected',
      submittedBy: 'alice',
      decidedBy: 'bob',
      note: 'not today',
    });
    expect(
      await h.desk.team.submission({
        profileId,
        submissionId: '00000000-0000-4000-8000-000000000000',
      }),
    ).toBeNull();
  });

  it('refuses an approval the content no longer matches (a weight changed after approval)', async () => {
    const first = await confirmedDraft('6');
    const submitted = await h.desk.team.submit(first);
    await bob.query("SELECT team.decide($1, true, '', 'desk-bob')", [submitted.id]);
    // The same draft changed after approval, confirmed again: its content is not what was approved.
    await h.desk.drafts.saveRows({
      draftId: first.draftId,
      rows: (await h.desk.drafts.get({ draftId: first.draftId })).rows.map((r, i) => ({
        ...r,
        weight: i === 0 ? '7' : r.weight,
      })),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: first.draftId });
    const before = await accepted();
    const outdated = await refusal(execute({ draftId: first.draftId, planKey: preview.planKey }));
    expect(outdated.kind).toBe('approval-outdated');
    expect(outdated.message).toMatch(/no longer matches what would be sent/);
    expect(await accepted()).toBe(before);
    expect(await claims()).toEqual([]);
  });

  it('never executes a strategy another desk of the team is executing', async () => {
    await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
    const alice = await db().as('alice');
    await alice.query("SELECT team.take_claim($1, 'other-key', 'desk-elsewhere')", [CORE]);
    const before = await accepted();
    const held = await refusal(execute(await confirmedDraft('8')));
    expect(held.kind).toBe('team-refused');
    expect(held.message).toMatch(/execution in flight from alice on desk desk-elsewhere/);
    expect(await accepted()).toBe(before);
    expect(h.desk.store.journal.listInFlight(profileId)).toEqual([]);
    await alice.query(
      "SELECT team.release_claim($1, 'other-key', 'desk-elsewhere', 'read: nothing sent')",
      [CORE],
    );
  });

  it('says the team store is needed when it is down, drafts on, and listens again once it is back', async () => {
    const draft = await confirmedDraft('9');
    const mark = h.events.length;
    const after = (e: DeskEvent) => h.events.indexOf(e) >= mark;
    const lost = h.waitFor(
      (e) => e.type === 'team-changed' && e.topic === 'connection' && !e.connected,
    );
    await db().cluster.stop('immediate');
    await lost;
    const before = await accepted();
    const down = await refusal(execute(draft));
    expect(down.kind).toBe('team-unavailable');
    expect(down.message).toMatch(/needed to execute as a member of the team/);
    expect(await accepted()).toBe(before);
    expect(h.desk.store.journal.listInFlight(profileId)).toEqual([]);
    // Drafting needs no team store.
    await h.desk.drafts.rename({ draftId: draft.draftId, name: 'Offline' });

    const back = h.waitFor(
      (e) => after(e) && e.type === 'team-changed' && e.topic === 'connection' && e.connected,
      30_000,
    );
    await db().cluster.start();
    await back;
    // A notice after the reconnect reaches the desk.
    const bobAgain = await db().as('bob');
    const notice = h.waitFor(
      (e) => after(e) && e.type === 'team-changed' && e.topic === 'assignment',
    );
    const ownerAgain = await db().owner();
    await ownerAgain.query('NOTIFY desk_team, \'{"topic":"assignment"}\'');
    await notice;
    await bobAgain.end();
  }, 60_000);

  it('gives the team’s claim back when a pending execution is withdrawn at start-up', async () => {
    // The owner's first connection ended with the cluster's restart above.
    owner = await db().owner();
    // The throwaway cluster runs without fsync: its immediate stop above may have lost releases
    // committed just before it (the other desk's, or this desk's own at its rebalance's end).
    // Whatever claim it kept is released again, as a member does after reading the service.
    const other = await db().as('alice');
    const kept = await owner.query<{ strategy_id: string; idempotency_key: string }>(
      'SELECT strategy_id, idempotency_key FROM team.claims',
    );
    for (const claim of kept.rows)
      await other.query(
        "SELECT team.release_claim($1, $2, 'desk-elsewhere', 'read: nothing sent')",
        [claim.strategy_id, claim.idempotency_key],
      );
    // ...and the policy set before it (no approval needed), set again.
    await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
    const seq = await lastSeq();
    const before = await accepted();
    const confirmed = await confirmedDraft('3');
    const draft = h.desk.store.drafts.get(confirmed.draftId)!;
    // Armed (journaled pending, the team's claim taken), then the app stops before sending it.
    const armed = await h.desk.execution.arm({
      profileId,
      strategyId: CORE,
      rows: draft.rows,
      origin: { kind: 'draft', draftId: draft.id },
      confirmation: { planKey: confirmed.planKey, acknowledgedStale: true, againAfter: null },
    });
    expect(armed.entry.state).toBe('pending');
    expect(await claims()).toEqual([{ strategy_id: CORE }]);
    await h.restart();
    expect(h.desk.store.journal.get(armed.entry.id)?.state).toBe('rejected');
    await expect.poll(claims, { timeout: 10_000 }).toEqual([]);
    const released = await owner.query<{ member: string; payload: string }>(
      "SELECT member::text, payload FROM team.activity WHERE seq > $1 AND kind = 'claim.released'",
      [seq],
    );
    expect(released.rows).toHaveLength(1);
    expect(JSON.parse(released.rows[0]!.payload)).toMatchObject({
      idempotencyKey: armed.entry.idempotencyKey,
      found: expect.stringMatching(/^withdrawn at start-up: .*nothing was sent$/),
    });
    expect(await accepted()).toBe(before);
  }, 60_000);

  it('closes a removed profile’s team pool and its LISTEN, and forgets its team password', async () => {
    const deskSessions = async () =>
      Number(
        (
          await owner.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE usename = 'alice' AND application_name = 'strategy-desk'",
          )
        ).rows[0].n,
      );
    // The listening connection (and the pool's) are open while the profile is in the team.
    await expect.poll(deskSessions, { timeout: 10_000 }).toBeGreaterThan(0);
    await h.desk.profiles.remove({ profileId });
    expect(h.desk.teams.teamOf(profileId)).toBeNull();
    expect(await h.secrets.get(teamSecretKey(profileId))).toBeNull();
    await expect.poll(deskSessions, { timeout: 10_000 }).toBe(0);
  }, 30_000);
});
