import type { TeamActivityEntry } from '../../../shared/activity/team-views';

/**
 * The team's log in words (the kinds its store writes, electron/core/team/migrations). A kind
 * this desk does not know yet (a newer desk wrote it) shows as written.
 */
export const TEAM_KIND_LABELS: Readonly<Record<string, string>> = {
  'approval.submitted': 'Submitted for approval',
  'approval.approved': 'Approved',
  'approval.rejected': 'Rejected',
  'approval.used': 'Approval used',
  'claim.taken': 'Claim taken',
  'claim.released': 'Claim released',
  'version.executed': 'Executed',
  'model.named': 'Model named',
  'model.saved': 'Model saved',
  'model.assigned': 'Model assigned',
  'team.policy': 'Policy changed',
};

export const teamKindLabel = (kind: string): string => TEAM_KIND_LABELS[kind] ?? kind;

const POLICY_WORDS: Record<string, string> = {
  every: 'every execution',
  batches: 'batches only',
  none: 'nothing',
};

/** What an entry says, from its payload (canonical JSON the team store wrote). */
export function teamEntrySummary(entry: Pick<TeamActivityEntry, 'kind' | 'payload'>): string {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(entry.payload) as Record<string, unknown>;
  } catch {
    return entry.payload;
  }
  const text = (key: string) => (typeof p[key] === 'string' ? (p[key] as string) : '');
  const note = text('note') ? `: “${text('note')}”` : '';
  switch (entry.kind) {
    // Named by the same short id as its decision and use, so the three read as one story.
    case 'approval.submitted':
      return `Submission ${text('submission').slice(0, 8)}: “${text('title')}”${
        text('kind') === 'batch' ? ' (a batch)' : ''
      }`;
    case 'approval.approved':
    case 'approval.rejected':
      return `Submission ${text('submission').slice(0, 8)}${note}`;
    case 'approval.used':
      return `Submission ${text('submission').slice(0, 8)}`;
    case 'claim.taken':
      return `Idempotency-Key ${text('idempotencyKey')}`;
    case 'version.executed':
      return `Accepted by the service; Idempotency-Key ${text('idempotencyKey')}`;
    case 'claim.released':
      return `Held by ${text('heldBy')} on ${text('heldOn')}; found ${text('found')}`;
    case 'model.named':
      return `“${text('name')}”${text('description') ? `: ${text('description')}` : ''}`;
    case 'model.saved':
      return `${text('name') ? `“${text('name')}” r` : 'R'}evision ${String(p.revision)}${
        text('copiedFrom') ? `, copied from ${text('copiedFrom')}` : ''
      }${note}`;
    case 'model.assigned':
      return text('model')
        ? `To model ${text('model').slice(0, 8)}${text('revision') ? ', pinned' : ''}`
        : 'Unassigned';
    case 'team.policy':
      return `Approval needed for ${POLICY_WORDS[text('policy')] ?? text('policy')}; an approval lasts ${Number(p.ttlSeconds) / 3600} h`;
    default:
      return entry.payload;
  }
}
