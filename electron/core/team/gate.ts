import { DeskError, isKind } from '../../../shared/errors';
import { canonicalJson } from '../store/repositories/activity-canonical';
import type { TeamConnections } from './connection';

/** An execution about to be read fresh and journaled (execution/execute.ts, `arm`). */
export interface TeamClaim extends ClaimRef {
  /** A batch's item: approval is asked under the `batches` policy too. */
  batch: boolean;
}

export interface ReleaseRetry {
  firstMs: number;
  maxMs: number;
}

const RELEASE_RETRY_MS: ReleaseRetry = { firstMs: 2000, maxMs: 60_000 };
const NEED = 'to execute as a member of the team';

/**
 * The team's part at the one place every execution passes (docs/team.md). For a desk in a team,
 * first the team's claim (one execution of a strategy in flight across the team), taken before
 * the strategy is read fresh for the send, so no other desk executes it between the read and
 * the send; then, when the team's policy asks, the use of an approval naming this exact content
 * as read. Refused before it is journaled, the claim is given back before the refusal is told.
 * Released once the execution settled: its rebalance ended (while it runs the holdings look as
 * before), or it was rejected, withdrawn or dismissed; an unknown one keeps it until it is
 * reconciled. A profile without a team answers null at once: nothing is loaded or asked.
 */
export class TeamGate {
  /** Releases the team store did not take yet (unreachable): tried again with a growing wait. */
  private readonly unreleased = new Map<string, { claim: ClaimRef; finding: string }>();
  /** Executions the service accepted whose entry the team's log has not taken yet. */
  private readonly unrecorded = new Map<string, { claim: ClaimRef; versionId: string }>();
  private retryTimer: NodeJS.Timeout | null = null;
  private retryWaitMs: number;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly teams: TeamConnections,
    private readonly onReleaseFault: (claim: ClaimRef, error: unknown) => void = () => undefined,
    private readonly retry: ReleaseRetry = RELEASE_RETRY_MS,
  ) {
    this.retryWaitMs = retry.firstMs;
  }

  /** The team's claim, and whether the team's policy asks for an approval of this execution. */
  admit(claim: TeamClaim): Promise<{ approvalNeeded: boolean }> | null {
    if (!this.teams.teamOf(claim.profileId)) return null;
    return this.teams
      .withTeam(claim.profileId, NEED, async (client) => {
        const { rows } = await client.query<{ approval: boolean }>(
          `SELECT team.take_claim($1, $2, $3) AS claimed,
                s.approval_policy = 'every' OR (s.approval_policy = 'batches' AND $4) AS approval
           FROM team.settings s`,
          [claim.strategyId, claim.idempotencyKey, this.teams.deskName(), claim.batch],
        );
        return { approvalNeeded: rows[0]?.approval === true };
      })
      .catch((error: unknown) => {
        // Lost while taking it, the claim may be taken all the same: given back once the team
        // store is there again (a claim not held is no change), or no later send could take it.
        if (error instanceof DeskError && isKind(error, 'team-unavailable'))
          this.release(claim, 'not sent: the team store was lost while the claim was taken');
        throw error;
      });
  }

  /** The approval naming this canonical content (approvals.ts) used, once, under the claim. */
  async useApproval(claim: ClaimRef, content: string): Promise<void> {
    await this.teams.withTeam(claim.profileId, NEED, (client) =>
      client.query('SELECT team.use_approval($1, $2, $3)', [
        claim.strategyId,
        content,
        this.teams.deskName(),
      ]),
    );
  }

  /** The claim given back now (tried again later if the team store cannot take it). */
  async settle(claim: ClaimRef, finding: string): Promise<void> {
    if (!this.teams.teamOf(claim.profileId)) return;
    this.unreleased.set(`${claim.profileId}/${claim.idempotencyKey}`, { claim, finding });
    await this.releaseAll();
  }

  /**
   * The service accepted the execution: the team's log records it (`version.executed`, with the
   * version and the Idempotency-Key), before its claim's release (written in that order).
   */
  executed(claim: ClaimRef, versionId: string): void {
    if (!this.teams.teamOf(claim.profileId)) return;
    this.unrecorded.set(`${claim.profileId}/${claim.idempotencyKey}`, { claim, versionId });
    void this.releaseAll();
  }

  /** The execution settled: its claim leaves the team store, with what was found. */
  release(claim: ClaimRef, finding: string): void {
    if (!this.teams.teamOf(claim.profileId)) return;
    this.unreleased.set(`${claim.profileId}/${claim.idempotencyKey}`, { claim, finding });
    void this.releaseAll();
  }

  /**
   * Resolves once every entry and release asked so far was tried (for tests and close). One
   * flush at a time: two at once both wrote an entry still waiting (a `version.executed` twice).
   */
  releaseAll(): Promise<void> {
    const next = this.flushing.then(() => this.flush());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  private async flush(): Promise<void> {
    await Promise.all(
      [...this.unrecorded.entries()].map(async ([key, { claim, versionId }]) => {
        try {
          await this.teams.withTeam(claim.profileId, 'to record an execution', (client) =>
            client.query(
              `INSERT INTO team.activity (desk, kind, strategy_id, version_id, payload)
               VALUES ($1, 'version.executed', $2, $3, $4)`,
              [
                this.teams.deskName(),
                claim.strategyId,
                versionId,
                canonicalJson({ idempotencyKey: claim.idempotencyKey }),
              ],
            ),
          );
          this.unrecorded.delete(key);
        } catch (error) {
          if (!this.teams.teamOf(claim.profileId)) this.unrecorded.delete(key);
          else this.onReleaseFault(claim, error);
        }
      }),
    );
    const tries = [...this.unreleased.entries()].map(async ([key, { claim, finding }]) => {
      // Its execution's entry first: a release written before it would read out of order.
      if (this.unrecorded.has(key)) return;
      try {
        await this.teams.withTeam(claim.profileId, 'to release a claim', (client) =>
          client.query('SELECT team.release_claim($1, $2, $3, $4)', [
            claim.strategyId,
            claim.idempotencyKey,
            this.teams.deskName(),
            finding,
          ]),
        );
        this.unreleased.delete(key);
      } catch (error) {
        // A profile that left its team has nothing to release any more.
        if (!this.teams.teamOf(claim.profileId)) this.unreleased.delete(key);
        else this.onReleaseFault(claim, error);
      }
    });
    await Promise.all(tries);
    if (this.unreleased.size === 0 && this.unrecorded.size === 0) {
      this.retryWaitMs = this.retry.firstMs;
      return;
    }
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.releaseAll();
    }, this.retryWaitMs);
    this.retryTimer.unref?.();
    this.retryWaitMs = Math.min(this.retry.maxMs, this.retryWaitMs * 2);
  }

  /** Releases of the profile's claims the team store has not taken yet. */
  pendingReleases(profileId: string): number {
    return [...this.unreleased.values()].filter((u) => u.claim.profileId === profileId).length;
  }

  /**
   * The team store answers again (the profile's listening connection is back): the releases it
   * could not take are tried now, not after the wait that grew while it was away.
   */
  retryNow(profileId: string): void {
    const waiting = [...this.unreleased.values(), ...this.unrecorded.values()].some(
      (u) => u.claim.profileId === profileId,
    );
    if (!waiting) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryWaitMs = this.retry.firstMs;
    void this.releaseAll();
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}

export interface ClaimRef {
  profileId: string;
  strategyId: string;
  idempotencyKey: string;
}
