import { actionWords, DOUBT_WORDS } from '../../../shared/draft/words';
import { formatCount } from '../../../shared/figures';
import type { ExecutePreview, PredictedPositionView } from '../../../shared/views';

/** The confirmation's words, from a preview built on a fresh read of the strategy. */

const ORDER: Record<PredictedPositionView['effect'], number> = {
  add: 0,
  change: 1,
  remove: 2,
  'sell-held': 3,
  uncertain: 4,
  unchanged: 5,
};

export interface ConfirmationSummary {
  /** Every position, adds first, sales of held symbols before uncertain ones, unchanged last. */
  lines: PredictedPositionView[];
  counts: Record<PredictedPositionView['effect'], number>;
  /** One sentence: what changes, in numbers; on a target in doubt, only what is certain. */
  headline: string;
  /** The target is in doubt (unknown, stale or unconfirmed): no action is predicted. */
  uncertain: boolean;
  /** The doubt must be acknowledged before executing (the preview says, as the desk checks). */
  needsAcknowledgement: boolean;
}

/** `subject` names what is executed: "this draft", or a batch line's model revision. */
export function summarize(preview: ExecutePreview, subject = 'this draft'): ConfirmationSummary {
  const counts = { add: 0, change: 0, remove: 0, 'sell-held': 0, uncertain: 0, unchanged: 0 };
  for (const p of preview.positions) counts[p.effect]++;
  const lines = preview.positions
    .map((p, i) => [p, i] as const)
    .sort(([a, i], [b, j]) => ORDER[a.effect] - ORDER[b.effect] || i - j)
    .map(([p]) => p);
  return {
    lines,
    counts,
    headline: headlineOf(preview, counts, subject),
    uncertain: preview.doubts.length > 0,
    needsAcknowledgement: preview.needsAcknowledgement,
  };
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function headlineOf(
  preview: ExecutePreview,
  c: ConfirmationSummary['counts'],
  subject: string,
): string {
  if (preview.changesNothing)
    return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} changes nothing in the current target: executing it only rebalances the holdings back to the same weights.`;
  const sold = plural(c['sell-held'], 'held symbol sold whole', 'held symbols sold whole');
  if (preview.doubts.length > 0) {
    // Only the sales of held symbols at 0 are facts: nothing is counted as unchanged.
    const parts: string[] = [];
    if (c['sell-held'] > 0) parts.push(sold);
    if (c.uncertain > 0)
      parts.push(`${plural(c.uncertain, 'position', 'positions')} whose action is uncertain`);
    const why = preview.doubts.map((d) => DOUBT_WORDS[d]).join('; ');
    return (
      `${parts.join(', ')}. No action is predicted: ${why}. ` +
      'The service decides each action from the target it holds now.'
    );
  }
  const parts: string[] = [];
  if (c.add > 0) parts.push(plural(c.add, 'add', 'adds'));
  if (c.change > 0) parts.push(plural(c.change, 'change', 'changes'));
  if (c.remove > 0) parts.push(plural(c.remove, 'remove', 'removes'));
  if (c['sell-held'] > 0) parts.push(sold);
  if (c.unchanged > 0) parts.push(`${c.unchanged} unchanged`);
  return `${parts.join(', ')}.`;
}

/** The action column: the same words as the grid and the activity entry (shared/draft/words). */
export function actionLabel(p: PredictedPositionView): string {
  return actionWords(p);
}

/** The old weight column's heading: on a target in doubt it is only the last known weight. */
export function oldWeightHeading(preview: ExecutePreview): string {
  return preview.doubts.length > 0 ? 'Last known %' : 'Old %';
}

/** Where the profile's requests go: the built-in sandbox, or the service's host. */
export function environmentLabel(profile: ExecutePreview['profile']): string {
  if (profile.environment === 'sandbox') return 'SANDBOX: a local simulation, no real money';
  try {
    return new URL(profile.baseUrl).host;
  } catch {
    return profile.baseUrl;
  }
}
