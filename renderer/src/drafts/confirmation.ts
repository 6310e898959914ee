import { formatCount } from '../../../shared/figures';
import type { ExecutePreview, PredictedPositionView } from '../../../shared/views';

/** The confirmation's words, from a preview built on a fresh read of the strategy. */

const ORDER: Record<PredictedPositionView['effect'], number> = {
  add: 0,
  change: 1,
  remove: 2,
  'sell-held': 3,
  unknown: 4,
  unchanged: 5,
};

export interface ConfirmationSummary {
  /** Every position that moves or whose action is unknown, adds first; unchanged ones last. */
  lines: PredictedPositionView[];
  counts: Record<PredictedPositionView['effect'], number>;
  /** One sentence: what changes, in numbers. */
  headline: string;
  /** The target is unknown, or the holdings do not fit it: the prediction may be wrong. */
  uncertain: boolean;
  /** Holdings that do not fit the known target must be acknowledged before executing. */
  needsAcknowledgement: boolean;
}

export function summarize(preview: ExecutePreview): ConfirmationSummary {
  const counts = { add: 0, change: 0, remove: 0, 'sell-held': 0, unknown: 0, unchanged: 0 };
  for (const p of preview.positions) counts[p.effect]++;
  const lines = preview.positions
    .map((p, i) => [p, i] as const)
    .sort(([a, i], [b, j]) => ORDER[a.effect] - ORDER[b.effect] || i - j)
    .map(([p]) => p);
  // Holdings that do not fit the known target, or a known target the service no longer knows.
  const needsAcknowledgement =
    (preview.check !== null && !preview.check.fits) || preview.targetUnconfirmed;
  return {
    lines,
    counts,
    headline: headlineOf(preview, counts),
    uncertain: preview.target.kind === 'unknown' || needsAcknowledgement,
    needsAcknowledgement,
  };
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function headlineOf(preview: ExecutePreview, c: ConfirmationSummary['counts']): string {
  if (preview.changesNothing)
    return 'This draft changes nothing in the current target: executing it only rebalances the holdings back to the same weights.';
  const parts: string[] = [];
  if (c.add > 0) parts.push(plural(c.add, 'add', 'adds'));
  if (c.change > 0) parts.push(plural(c.change, 'change', 'changes'));
  if (c.remove > 0) parts.push(plural(c.remove, 'remove', 'removes'));
  if (c['sell-held'] > 0)
    parts.push(plural(c['sell-held'], 'held symbol sold whole', 'held symbols sold whole'));
  if (c.unknown > 0)
    parts.push(`${plural(c.unknown, 'position', 'positions')} whose action is unknown`);
  if (c.unchanged > 0) parts.push(`${c.unchanged} unchanged`);
  const known =
    preview.target.kind === 'unknown'
      ? ' The current target is unknown to this app, so no action is predicted beyond the sales of held symbols.'
      : preview.check && !preview.check.fits
        ? ' Predicted from the known target, which the holdings do not fit: the service may act otherwise.'
        : preview.targetUnconfirmed
          ? " Predicted from this app's copy of a version the service no longer knows: the service may act otherwise."
          : '';
  return `${parts.join(', ')}.${known}`;
}

/** The action column: the predicted action, or what is known without a target. */
export function actionLabel(p: PredictedPositionView): string {
  if (p.action === null) return p.sellsAll ? 'unknown (sells all)' : 'unknown';
  return p.sellsAll ? `${p.action} · sells all` : p.action;
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
