import { createHash } from 'node:crypto';
import { predictExecution, validOrThrow, type ExecutionPrediction } from '../../../shared/draft';
import type { ExecuteRequest } from '../../../shared/domain/resources';
import { knownTargetOf, targetCheckFrom } from '../../../shared/known-target';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/constants';
import { isServiceError } from '../api';
import { DeskError } from '../../../shared/views';
import type { ExecutePreview, TargetCheckView } from '../../../shared/views';
import type { Store, TargetState } from '../store';
import type { Connections } from '../profiles/connections';
import { notFound } from '../errors';
import { noteReadFailure, readStrategy, type StrategyReadStore } from '../strategies/sync';
import { runningVersionId } from '../strategies/targets';
import { strategyView, type ViewStore } from '../views/strategy';
import { DraftExecutedError } from './errors';
import type { ExecutionRequest, FreshRead } from './request';

/**
 * The Execute confirmation and what it promises. Opening it re-reads the strategy and the
 * version the app takes as its current target (one request each; offline, no confirmation),
 * predicts the request from those fresh facts, and names it with a plan key. Executing sends
 * only the request the manager saw: if the draft, the holdings or the known target changed in
 * between (another window executed, a refresh), it asks for a new confirmation instead.
 */

/** What the confirmation reads and records with. */
export interface ConfirmationDeps {
  store: ViewStore & StrategyReadStore & Pick<Store, 'drafts' | 'journal'>;
  connections: Pick<Connections, 'call'>;
  now(): string;
}

/** A strategy's target rows, from a draft or a batch (request.ts). */
export type ExecutionTarget = Pick<ExecutionRequest, 'profileId' | 'strategyId' | 'rows'>;

/**
 * The prediction of a target from what the store holds now (refreshed by prepare).
 * `unconfirmed`: the service did not know the known target's version when just asked.
 */
export function planOf(deps: ConfirmationDeps, request: ExecutionTarget, unconfirmed = false) {
  const { profileId, strategyId } = request;
  const { store } = deps;
  const stored = store.strategies.get(profileId, strategyId);
  if (!stored) throw notFound('This strategy');
  const known = store.versions.latestExecuted(profileId, strategyId, { orders: true });
  const target = known && knownTargetOf(known);
  const holdings = (stored.positions ?? store.strategies.holdings(profileId, strategyId)).map(
    (h) => ({ symbol: h.symbol, quantity: h.quantity }),
  );
  const validation = validOrThrow(request.rows, target?.positions ?? [], {
    liquidateOnly: stored.is_liquidate_only,
    targetUnknown: target === null,
  });
  // The holdings against the known target (shared/known-target.ts).
  const check =
    known &&
    target &&
    targetCheckFrom(known, target, holdings, stored.updated_at, () =>
      store.predictions.baselineOf(profileId, strategyId, known.id),
    );
  // The doubts are part of the prediction: with any, no action is predicted as fact.
  const prediction = predictExecution(validation, target?.positions ?? null, holdings, {
    stale: check !== null && !check.fits,
    unconfirmed: unconfirmed && target !== null,
  });
  const planKey = keyOf(prediction, target?.versionId ?? null, check);
  return { stored, target, holdings, prediction, check, planKey };
}

type Plan = ReturnType<typeof planOf>;

function keyOf(
  prediction: ExecutionPrediction,
  knownVersionId: string | null,
  check: TargetCheckView | null,
): string {
  return createHash('sha256')
    .update(JSON.stringify([prediction.body, prediction.positions, knownVersionId, check]))
    .digest('hex');
}

/**
 * Reads the version taken as the current target from the service and stores it. True when the
 * service no longer knows it (deleted elsewhere, a sandbox started afresh): the stored copy stays
 * the known target, said to be unchecked, rather than leaving the manager no way to execute.
 */
async function targetUnknownToService(
  deps: ConfirmationDeps,
  profileId: string,
  strategyId: string,
): Promise<boolean> {
  const known = deps.store.versions.latestExecuted(profileId, strategyId, { positions: false });
  if (!known) return false;
  try {
    const version = await deps.connections.call(profileId, (c) =>
      c.getVersion(strategyId, known.id, { orders: true, positions: true }),
    );
    deps.store.versions.recordRead(profileId, version, { syncedAt: deps.now() });
    return false;
  } catch (error) {
    if (!isServiceError(error, 'not-found')) throw error;
    return true;
  }
}

/**
 * Reads the known target's version, then the strategy with its holdings, fresh from the service
 * and stores them: what a confirmation shows and a confirmed request is checked against.
 */
async function readFresh(
  deps: ConfirmationDeps,
  profileId: string,
  strategyId: string,
): Promise<FreshRead> {
  // The version first, then the strategy: holdings read after the version's state are compared.
  const unknownToService = await readKnownTarget(deps, profileId, strategyId);
  await readStrategy(deps, profileId, strategyId);
  return { unknownToService };
}

/** `targetUnknownToService`, its failure the strategy's "Refresh failed" (it was not read). */
function readKnownTarget(
  deps: ConfirmationDeps,
  profileId: string,
  strategyId: string,
): Promise<boolean> {
  return targetUnknownToService(deps, profileId, strategyId).catch((error: unknown) => {
    noteReadFailure(deps, profileId, strategyId, error);
    throw error;
  });
}

/**
 * A batch's item at send time: the strategy is read fresh, and its known target's version only
 * when the plan could depend on the answer. A version that ended (complete, failed, cancelled)
 * cannot change: its status is final, its orders with it, and an executed version cannot be
 * deleted (service interface, deletion rule). So when the stored copy has ended and the plan
 * worked out from the strategy just read is still the reviewed one, reading that version again
 * tells nothing the review did not (it read both fresh); any other case reads it as a draft's
 * execute does. One request fewer of three per item: a batch's sends share the profile's
 * request budget with its own reads (docs/batches.md).
 */
async function readForBatchSend(
  deps: ConfirmationDeps,
  request: ExecutionTarget,
  reviewedPlanKey: string,
): Promise<FreshRead & { plan?: Plan }> {
  const { profileId, strategyId } = request;
  // Its status only: the plan below reads the version with what it needs.
  const known = deps.store.versions.latestExecuted(profileId, strategyId, { positions: false });
  if (!known?.status || !TERMINAL_VERSION_STATUSES.has(known.status))
    return readFresh(deps, profileId, strategyId);
  await readStrategy(deps, profileId, strategyId);
  const plan = planOf(deps, request);
  if (plan.planKey === reviewedPlanKey) return { unknownToService: false, plan };
  // Something moved: the version's answer may be part of why (the service no longer knowing it).
  return { unknownToService: await readKnownTarget(deps, profileId, strategyId) };
}

/** The confirmation of a draft: what executing it does now, and the plan key to send it with. */
export async function prepareExecution(
  deps: ConfirmationDeps,
  draftId: string,
): Promise<ExecutePreview> {
  const draft = deps.store.drafts.get(draftId);
  if (!draft) throw notFound('This draft');
  return prepareTarget(deps, draft, draftId);
}

/**
 * The confirmation of a strategy's target rows (a draft's, or a batch's for one strategy):
 * reads the known target and the strategy fresh, and predicts the request from them.
 * `draftId`: the draft they come from, whose earlier version "Execute again" names.
 */
export async function prepareTarget(
  deps: ConfirmationDeps,
  request: ExecutionTarget,
  draftId: string | null,
): Promise<ExecutePreview> {
  const { profileId, strategyId } = request;
  const profile = deps.store.profiles.get(profileId);
  if (!profile) throw notFound('This profile');
  if (!deps.store.strategies.get(profileId, strategyId)) throw notFound('This strategy');
  const { unknownToService: targetUnconfirmed } = await readFresh(deps, profileId, strategyId);
  const plan = planOf(deps, request, targetUnconfirmed);
  const target = plan.target;
  const source = target ? deps.store.versions.get(profileId, target.versionId) : null;
  return {
    planKey: plan.planKey,
    profile: { name: profile.name, environment: profile.environment, baseUrl: profile.baseUrl },
    // The strategy, its known target and check as the plan just read them: not read again.
    strategy: strategyView(
      deps.store,
      profileId,
      plan.stored,
      runningVersionId(deps.store, profileId, strategyId),
      { target: plan.target, check: plan.check },
    ),
    target:
      target && source
        ? {
            kind: 'known',
            versionId: target.versionId,
            executedAt: target.executedAt,
            status: target.status,
            origin: source.origin,
          }
        : { kind: 'unknown' },
    check: plan.check,
    targetUnconfirmed: targetUnconfirmed && target !== null,
    doubts: plan.prediction.doubts,
    possiblyTargeted: plan.prediction.possiblyTargeted,
    needsAcknowledgement: plan.prediction.needsAcknowledgement,
    positions: plan.prediction.positions,
    oldCash: plan.prediction.oldCash,
    newCash: plan.prediction.newCash,
    changesNothing: plan.prediction.changesNothing,
    earlierVersionId: draftId === null ? null : deps.store.journal.executedVersionOf(draftId),
  };
}

/**
 * The request to send, after checking that it is still the one the manager confirmed; records
 * the prediction before anything is sent. A confirmed request reads the known target and the
 * strategy once more first: a change made elsewhere while the dialog (or a batch's review) was
 * open shows in its holdings or its update time, and the manager sees the new confirmation
 * instead.
 */
export async function confirmedRequest(
  deps: ConfirmationDeps,
  request: ExecutionRequest,
): Promise<{
  body: ExecuteRequest;
  predictionId: string;
  targetUnconfirmed: boolean;
  prediction: ExecutionPrediction;
  /** What it was predicted on, as a team's approval names it (team/approvals.ts). */
  base: {
    knownVersionId: string | null;
    holdings: { symbol: string; quantity: string }[];
    planKey: string;
  };
}> {
  const { profileId, strategyId, origin, confirmation } = request;
  const draftId = origin.kind === 'draft' ? origin.draftId : null;
  // What the confirmation warned of is checked again at the service, so the answer holds now.
  const read: FreshRead & { plan?: Plan } = !confirmation
    ? { unknownToService: false }
    : origin.kind === 'batch'
      ? await readForBatchSend(deps, request, confirmation.planKey)
      : await readFresh(deps, profileId, strategyId);
  const unknownToService = read.unknownToService;
  const plan = read.plan ?? planOf(deps, request, unknownToService);
  const targetUnconfirmed = unknownToService && plan.target !== null;
  if (confirmation) {
    if (confirmation.planKey !== plan.planKey)
      throw new DeskError({
        kind: 'confirmation-outdated',
        message:
          'The draft, the holdings or the known target changed since the confirmation was ' +
          'shown (another window may have executed). Nothing was sent; open the confirmation ' +
          'again to see what executing does now.',
      });
    if (plan.prediction.needsAcknowledgement && !confirmation.acknowledgedStale)
      throw notAcknowledged(plan.prediction);
  }
  // With or without a confirmation: a draft that became a version is executed again only when
  // the caller names that version ("Execute again"), so a repeated call cannot send it twice.
  // Checked here before a prediction is recorded, and again where the journal claims the
  // execution (the same transaction as its entry), which no other process can also win.
  const earlier = draftId === null ? null : deps.store.journal.executedVersionOf(draftId);
  if (earlier !== null && confirmation?.againAfter !== earlier)
    throw new DraftExecutedError(earlier);
  const targetState: TargetState = !plan.target
    ? 'unknown'
    : plan.check && !plan.check.fits
      ? 'stale'
      : 'known';
  const record = deps.store.predictions.record({
    profileId,
    strategyId,
    draftId,
    requestBody: JSON.stringify(plan.prediction.body),
    knownVersionId: plan.target?.versionId ?? null,
    targetState,
    prediction: plan.prediction.positions,
  });
  return {
    body: plan.prediction.body,
    predictionId: record.id,
    targetUnconfirmed,
    prediction: plan.prediction,
    base: {
      knownVersionId: plan.target?.versionId ?? null,
      holdings: plan.holdings,
      planKey: plan.planKey,
    },
  };
}

/** The refusal of a request on a target in doubt that the manager did not acknowledge. */
function notAcknowledged(prediction: ExecutionPrediction): DeskError {
  const doubts = prediction.doubts;
  const why = doubts.includes('unknown')
    ? 'No executed version of this strategy is known here and it holds positions, so the ' +
      'service may act on a target this app does not know and sell them'
    : doubts.includes('stale')
      ? 'The holdings do not fit the known target: the strategy may have been changed elsewhere'
      : 'The service no longer knows the version taken as the current target, so the ' +
        "prediction comes from this app's copy";
  return new DeskError({
    kind: 'stale-not-acknowledged',
    message: `${why}. Acknowledge that the predicted actions are uncertain before executing. Nothing was sent.`,
  });
}
