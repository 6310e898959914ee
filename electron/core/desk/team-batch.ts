import type { Acknowledgement } from '../../../shared/batches/views';
import type { DraftRowInput } from '../../../shared/draft';
import { DeskError } from '../../../shared/errors';
import { checkAcknowledgements } from '../batches/batches';
import { planOf, prepareTarget, type ConfirmationDeps } from '../execution/confirmation';
import type { Store, StoredBatch, StoredBatchItem } from '../store';
import { canonicalJson } from '../store/repositories/activity-canonical';
import { approvalContent } from '../team/approvals';

export interface BatchSubmissionInput {
  unticked: readonly string[];
  acknowledged: readonly Acknowledgement[];
}

/**
 * A batch's review as an approval names it (docs/team.md): every included strategy read fresh
 * and checked against the review (its plan key), each a line of canonical content as its item
 * will be armed with (request body, base, plan key, whether its uncertain target was
 * acknowledged), and the review's acknowledgements and unticked strategies. Nothing is sent.
 */
export async function batchSubmission(
  deps: ConfirmationDeps & { store: Store },
  batch: StoredBatch,
  input: BatchSubmissionInput,
): Promise<{ kind: 'batch'; subject: string; title: string; content: string }> {
  const { store } = deps;
  if (batch.state !== 'reviewed')
    throw new DeskError({
      kind: 'confirmation-outdated',
      message:
        batch.state === 'expired'
          ? 'This review was made before the app restarted: review the strategies again. Nothing was submitted.'
          : 'This batch was executed already (perhaps from another window): nothing was submitted.',
    });
  const items = store.batches.items(batch.id);
  const unticked = new Set(input.unticked);
  checkAcknowledgements(batch.id, items, unticked, input.acknowledged);
  const included = items.filter((i) => i.state === 'ready' && !unticked.has(i.strategyId));
  if (included.length === 0)
    throw new DeskError({
      kind: 'invalid-input',
      message:
        'No strategy of this review would be sent (each is excluded or unticked): nothing was submitted.',
    });
  const acknowledged = new Set(input.acknowledged.map((a) => a.strategyId));
  // Each line's fresh read waits its turn in the profile's request budget, as a review's do.
  const lines = await Promise.all(included.map((item) => lineOf(deps, batch, item, acknowledged)));

  const model = store.models.get(batch.modelId);
  const revision = store.models.revision(batch.revisionId);
  const names = included.slice(0, 3).map((i) => i.strategyName);
  const more = included.length - names.length;
  return {
    kind: 'batch',
    subject: batch.id,
    title: `Batch: ${model?.name ?? 'a model'}${revision ? ` (revision ${revision.number})` : ''} for ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    content: canonicalJson({
      acknowledgements: [...input.acknowledged]
        .map((a) => ({ fingerprint: a.fingerprint, strategyId: a.strategyId }))
        .sort((a, b) => (a.strategyId < b.strategyId ? -1 : a.strategyId > b.strategyId ? 1 : 0)),
      batchId: batch.id,
      lines,
      model: { modelId: batch.modelId, revisionId: batch.revisionId },
      // What the approver reads each line as; not part of what an item hashes.
      names: Object.fromEntries(included.map((i) => [i.strategyId, i.strategyName])),
      unticked: [...unticked].sort(),
    }),
  };
}

/** One strategy's line: what arming its item will hash (execution/execute.ts, `arm`). */
async function lineOf(
  deps: ConfirmationDeps & { store: Store },
  batch: StoredBatch,
  item: StoredBatchItem,
  acknowledged: ReadonlySet<string>,
): Promise<string> {
  const target = {
    profileId: batch.profileId,
    strategyId: item.strategyId,
    rows: JSON.parse(item.rows) as DraftRowInput[],
  };
  const preview = await prepareTarget(deps, target, null);
  const plan = planOf(deps, target, preview.targetUnconfirmed);
  if (preview.planKey !== item.planKey || plan.planKey !== item.planKey)
    throw new DeskError({
      kind: 'confirmation-outdated',
      message: `${item.strategyName} changed since the review (its holdings or its known target): nothing was submitted; review the batch again.`,
    });
  return approvalContent({
    strategyId: item.strategyId,
    body: plan.prediction.body,
    knownVersionId: plan.target?.versionId ?? null,
    holdings: plan.holdings,
    planKey: plan.planKey,
    acknowledged: item.needsAcknowledgement && acknowledged.has(item.strategyId),
  });
}
