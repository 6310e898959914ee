import type { TeamConnections } from './connection';

/** An execution about to be journaled (execution/execute.ts, `arm`). */
export interface TeamClaim {
  profileId: string;
  strategyId: string;
  idempotencyKey: string;
  /** A batch's item: approval is asked under the `batches` policy too. */
  batch: boolean;
  /** The canonical content the approval must name (approvals.ts), built only for a team. */
  content(): string;
}

const RELEASE_RETRY_MS = { firstMs: 2000, maxMs: 60_000 };

/**
 * The team's part at the one place every execution passes (docs/team.md). For a desk in a team,
 * before the execution is journaled: the team's claim (one execution of a strategy in flight
 * across the team) and, when the team's policy asks, the use of an approval naming this exact
 * content, in one statement, so a refused approval leaves no claim behind. Released once the
 * execution settled (accepted, rejected, withdrawn or dismissed); an unknown one keeps it until
 * it is reconciled. A profile without a team answers null at once: nothing is loaded or asked.
 */
export class TeamGate {
  /** Releases the team store did not take yet (unreachable): tried again with a growing wait. */
  private readonly unreleased = new Map<string, { claim: ClaimRef; finding: string }>();
  private retryTimer: NodeJS.Timeout | null = null;
  private retryWaitMs = RELEASE_RETRY_MS.firstMs;

  constructor(
    private readonly teams: TeamConnections,
    private readonly onReleaseFault: (claim: ClaimRef, error: unknown) => void = () => undefined,
  ) {}

  admit(claim: TeamClaim): Promise<void> | null {
    if (!this.teams.teamOf(claim.profileId)) return null;
    return this.teams.withTeam(claim.profileId, 'to execute as a member of the team', (client) =>
      client
        .query(
          `SELECT team.take_claim($1, $2, $3) AS claimed,
                  CASE WHEN s.approval_policy = 'every' OR (s.approval_policy = 'batches' AND $5)
                       THEN team.use_approval($1, $4, $3) END AS approval
             FROM team.settings s`,
          [
            claim.strategyId,
            claim.idempotencyKey,
            this.teams.deskName(),
            claim.content(),
            claim.batch,
          ],
        )
        .then(() => undefined),
    );
  }

  /** The execution settled: its claim leaves the team store, with what was found. */
  release(claim: ClaimRef, finding: string): void {
    if (!this.teams.teamOf(claim.profileId)) return;
    this.unreleased.set(`${claim.profileId}/${claim.idempotencyKey}`, { claim, finding });
    void this.releaseAll();
  }

  /** Resolves once every release asked so far was tried (for tests and close). */
  async releaseAll(): Promise<void> {
    const tries = [...this.unreleased.entries()].map(async ([key, { claim, finding }]) => {
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
    if (this.unreleased.size === 0) {
      this.retryWaitMs = RELEASE_RETRY_MS.firstMs;
      return;
    }
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.releaseAll();
    }, this.retryWaitMs);
    this.retryTimer.unref?.();
    this.retryWaitMs = Math.min(RELEASE_RETRY_MS.maxMs, this.retryWaitMs * 2);
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
