/**
 * The attention queue's signals (docs/attention.md), in the order a manager acts on them: first
 * what may have moved money unseen or against a restriction, then what the last rebalance left undone, then what changed
 * since it ended, then what is merely due. Plain TypeScript (no zod): the renderer reads the
 * words without bundling the schemas.
 */
export const ATTENTION_KINDS = [
  'outcome-unknown',
  'failed-unacknowledged',
  'restricted-order',
  'unfilled',
  'unexecuted',
  'quantity-changed',
  'no-longer-held',
  'newly-held',
  'target-not-held',
  'held-not-targeted',
  'model-out-of-sync',
  'due',
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** A kind's place in the queue: lower comes first. */
export const attentionRank = (kind: AttentionKind): number => ATTENTION_KINDS.indexOf(kind);

/** Each kind in a few words (its badge) and a sentence (what it means). */
export const ATTENTION_KIND_TEXT: Record<AttentionKind, { label: string; meaning: string }> = {
  'outcome-unknown': {
    label: 'Outcome unknown',
    meaning: 'An execution was sent and its answer never came: check it before anything else.',
  },
  'failed-unacknowledged': {
    label: 'Failed rebalance',
    meaning: 'The last rebalance failed, wholly or in part, and nobody acknowledged it yet.',
  },
  'restricted-order': {
    label: 'Restricted order',
    meaning:
      'An order of a rebalance that ended bought or sold a symbol against a restriction in force when it was executed (overridden or not).',
  },
  unfilled: {
    label: 'Left unfilled',
    meaning: 'An order of the last rebalance filled in part or not at all.',
  },
  unexecuted: {
    label: 'Unexecuted version',
    meaning: 'A version not executed yet stands in the way of executing a new one.',
  },
  'quantity-changed': {
    label: 'Quantity changed',
    meaning:
      'The quantity held differs from the one read when the last rebalance ended: a trade outside the app or a corporate action such as a split.',
  },
  'no-longer-held': {
    label: 'No longer held',
    meaning: 'Held when the last rebalance ended, not held now.',
  },
  'newly-held': {
    label: 'Newly held',
    meaning: 'Held now, not held when the last rebalance ended.',
  },
  'target-not-held': {
    label: 'Target not held',
    meaning: 'The known target gives it a weight, and the strategy does not hold it.',
  },
  'held-not-targeted': {
    label: 'Held, not in target',
    meaning: 'The strategy holds it, and the known target gives it no weight.',
  },
  'model-out-of-sync': {
    label: 'Model out of sync',
    meaning: 'The strategy follows a model whose revision differs from its known target.',
  },
  due: {
    label: 'Due',
    meaning: 'Its schedule says it is due for a rebalance, and none was executed since.',
  },
};

export const SCHEDULE_CADENCES = ['monthly', 'quarterly', 'date'] as const;
export type ScheduleCadence = (typeof SCHEDULE_CADENCES)[number];
