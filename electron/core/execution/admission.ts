import { approvalContent } from '../team/approvals';
import type { Restrictions } from '../restrictions';
import { confirmedRequest, type ConfirmationDeps } from './confirmation';
import type { ExecutionRequest } from './request';

/** An execution's place in the team's claims: its strategy and its Idempotency-Key. */
export interface TeamClaimRef {
  profileId: string;
  strategyId: string;
  idempotencyKey: string;
}

/**
 * A desk in a team (team/gate.ts): the team's claim first, before the strategy is read fresh for
 * the send, so what is read and sent is read while no other desk of the team can execute it; then,
 * when its policy asks, the approval of this exact content; the claim released once it settled.
 * `admit` answers null for a profile without a team: nothing else happens.
 */
export interface TeamGatePort {
  admit(claim: TeamClaimRef & { batch: boolean }): Promise<{ approvalNeeded: boolean }> | null;
  useApproval(claim: TeamClaimRef, content: string): Promise<void>;
  /** Gives the claim back with what was found; resolves once the team store was asked. */
  settle(claim: TeamClaimRef, finding: string): Promise<void>;
  release(claim: TeamClaimRef, finding: string): void;
  /** The service accepted it: the team's log records the version. */
  executed(claim: TeamClaimRef, versionId: string): void;
}

export interface AdmissionDeps extends ConfirmationDeps {
  /** The team's claim and approval, for a profile in a team. */
  team?: TeamGatePort;
}

/** What an execution passed: the confirmed request and the restrictions' verdict on it. */
export interface Admitted {
  confirmed: Awaited<ReturnType<typeof confirmedRequest>>;
  restricted: ReturnType<Restrictions['forExecution']>;
}

/**
 * Step 1 of arming (execute.ts): what an execution passes before it is journaled, in order. The
 * team's claim (a desk in a team); the confirmation (confirmation.ts: the request the manager saw
 * is still what executing sends now, its prediction recorded); the restrictions in force, refused
 * whoever asks unless overridden by name (restrictions/); the team's approval of exactly this
 * content, read under the claim. A refusal gives the team's claim back before it is told; nothing
 * is journaled.
 */
export async function admitExecution(
  deps: AdmissionDeps,
  restrictions: Restrictions,
  request: ExecutionRequest,
  idempotencyKey: string,
): Promise<Admitted> {
  const { profileId, strategyId, origin, confirmation } = request;
  const claim = { profileId, strategyId, idempotencyKey };
  // Read before the claim, the strategy could be executed by another desk between the read and
  // the claim, and this send would double it.
  const admitted = await deps.team?.admit({ ...claim, batch: origin.kind === 'batch' });
  try {
    const confirmed = await confirmedRequest(deps, request);
    const restricted = restrictions.forExecution(
      profileId,
      strategyId,
      request.rows,
      confirmation?.restrictionOverride,
    );
    if (admitted?.approvalNeeded)
      await deps.team!.useApproval(
        claim,
        approvalContent({
          strategyId,
          body: confirmed.body,
          ...confirmed.base,
          // A batch's line names whether its uncertain target was acknowledged.
          ...(origin.kind === 'batch' && {
            acknowledged: confirmation?.acknowledgedStale ?? false,
          }),
        }),
      );
    return { confirmed, restricted };
  } catch (error) {
    if (admitted)
      await deps.team!.settle(
        claim,
        `not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
    throw error;
  }
}
