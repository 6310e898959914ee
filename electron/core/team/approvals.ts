import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type {
  ApprovalPolicy,
  SubmissionView,
  TeamMember,
  TeamRole,
} from '../../../shared/team/contract';
import { canonicalJson } from '../store/repositories/activity-canonical';
import type { TeamConnections } from './connection';

/**
 * Approvals bound to the exact content (docs/team.md). The content is canonical text (JSON with
 * sorted keys) of what executing would send and what it was predicted on: the request body, the
 * base (the known target's version id and a hash of the fresh read's holdings) and the plan key.
 * The database hashes it at submission and again where the execution is about to be sent
 * (gate.ts), so a weight changed or holdings moved in between void the approval.
 */
export interface ApprovalBasis {
  strategyId: string;
  body: unknown;
  knownVersionId: string | null;
  holdings: readonly { symbol: string; quantity: string }[];
  planKey: string;
  /**
   * A batch's line: whether its uncertain target was acknowledged (what the item is armed
   * with). Absent for a draft, whose acknowledgement is its confirmation's.
   */
  acknowledged?: boolean;
}

export function approvalContent(basis: ApprovalBasis): string {
  const holdings = [...basis.holdings]
    .map((h) => ({ quantity: h.quantity, symbol: h.symbol }))
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return canonicalJson({
    ...(basis.acknowledged !== undefined && { acknowledged: basis.acknowledged }),
    base: {
      holdingsHash: createHash('sha256').update(canonicalJson(holdings)).digest('hex'),
      knownVersionId: basis.knownVersionId,
    },
    body: basis.body,
    planKey: basis.planKey,
    strategyId: basis.strategyId,
  });
}

interface SubmissionRow {
  id: string;
  kind: 'draft' | 'batch';
  subject: string;
  title: string;
  content: string;
  state: SubmissionView['state'];
  submitted_by: string;
  submitted_from: string;
  submitted_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
  expires_at: Date | null;
}

const SUBMISSION_COLUMNS =
  'id, kind, subject, title, content, state, submitted_by, submitted_from, submitted_at, decided_by, decided_at, note, expires_at';

/** The weights a request body sends (`data.positions`, as the service takes it). */
function positionsOf(body: unknown): SubmissionView['positions'] {
  const sent = (body as { data?: { positions?: unknown } } | undefined)?.data?.positions;
  return Array.isArray(sent)
    ? (sent as { symbol?: unknown; weight?: unknown }[]).map((p) => ({
        symbol: String(p.symbol),
        weight: String(p.weight),
      }))
    : [];
}

function submissionOf(row: SubmissionRow): SubmissionView {
  const content = JSON.parse(row.content) as {
    body?: unknown;
    lines?: unknown;
    names?: Record<string, string>;
  };
  // A batch names each strategy's content as a line of its own canonical text.
  const lines =
    row.kind === 'batch' && Array.isArray(content.lines)
      ? (content.lines as string[]).map((text) => {
          const line = JSON.parse(text) as {
            strategyId: string;
            acknowledged?: boolean;
            body?: unknown;
          };
          return {
            strategyId: line.strategyId,
            strategyName: content.names?.[line.strategyId] ?? line.strategyId,
            acknowledged: line.acknowledged === true,
            positions: positionsOf(line.body),
          };
        })
      : [];
  const positions = positionsOf(content.body);
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    title: row.title,
    state: row.state,
    submittedBy: row.submitted_by,
    submittedFrom: row.submitted_from,
    submittedAt: row.submitted_at.toISOString(),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    note: row.note,
    expiresAt: row.expires_at?.toISOString() ?? null,
    positions,
    lines,
  };
}

const ROLE_COLUMNS: [string, TeamRole][] = [
  ['drafter', 'drafter'],
  ['approver', 'approver'],
  ['trader', 'trader'],
  ['model_admin', 'model-admin'],
];

/** What the team screen shows and does: members, the policy, submissions and decisions. */
export class TeamApprovals {
  constructor(private readonly teams: TeamConnections) {}

  members(profileId: string): Promise<{ members: TeamMember[]; policy: ApprovalPolicy }> {
    return this.teams.withTeam(profileId, 'to list its members', async (client) => {
      const { rows } = await client.query<Record<string, unknown>>(
        'SELECT login, display_name, drafter, approver, trader, model_admin FROM team.member_roles ORDER BY login',
      );
      return {
        members: rows.map((r) => ({
          login: String(r.login),
          displayName: String(r.display_name),
          roles: ROLE_COLUMNS.filter(([column]) => r[column] === true).map(([, role]) => role),
        })),
        policy: await policyOf(client),
      };
    });
  }

  /** Waiting ones first (oldest first), then the latest 50 decided (newest first). */
  submissions(profileId: string): Promise<SubmissionView[]> {
    return this.teams.withTeam(profileId, 'to list the submissions', async (client) => {
      const { rows } = await client.query<SubmissionRow>(
        `SELECT * FROM (
           (SELECT ${SUBMISSION_COLUMNS}, 0 AS part, submitted_at AS waiting_since, NULL::timestamptz AS moved_at
              FROM team.submissions WHERE state = 'submitted')
           UNION ALL
           (SELECT ${SUBMISSION_COLUMNS}, 1, NULL, coalesce(used_at, decided_at, submitted_at)
              FROM team.submissions WHERE state <> 'submitted'
             ORDER BY coalesce(used_at, decided_at, submitted_at) DESC, id LIMIT 50)
         ) s ORDER BY part, waiting_since ASC, moved_at DESC, id`,
      );
      return rows.map(submissionOf);
    });
  }

  /** One submission, whatever its age (a notice names it: the list holds only the latest). */
  submission(profileId: string, submissionId: string): Promise<SubmissionView | null> {
    return this.teams.withTeam(profileId, 'to read a submission', async (client) => {
      const { rows } = await client.query<SubmissionRow>(
        `SELECT ${SUBMISSION_COLUMNS} FROM team.submissions WHERE id = $1`,
        [submissionId],
      );
      return rows[0] ? submissionOf(rows[0]) : null;
    });
  }

  /**
   * A draft's content (subject: its strategy), or a batch's (subject: the batch; its content's
   * `lines` each strategy's content, which the team store hashes one by one).
   */
  submit(
    profileId: string,
    submission: { kind: 'draft' | 'batch'; subject: string; title: string; content: string },
  ): Promise<SubmissionView> {
    return this.teams.withTeam(profileId, 'to submit for approval', async (client) => {
      const { rows } = await client.query<{ id: string }>(
        submission.kind === 'batch'
          ? 'SELECT team.submit_batch($1, $2, $3, $4) AS id'
          : "SELECT team.submit('draft', $1, $2, $3, $4) AS id",
        [submission.subject, submission.title, submission.content, this.teams.deskName()],
      );
      const made = await client.query<SubmissionRow>(
        `SELECT ${SUBMISSION_COLUMNS} FROM team.submissions WHERE id = $1`,
        [rows[0]!.id],
      );
      return submissionOf(made.rows[0]!);
    });
  }

  decide(
    profileId: string,
    decision: { submissionId: string; approve: boolean; note: string },
  ): Promise<void> {
    return this.teams.withTeam(
      profileId,
      decision.approve ? 'to approve' : 'to reject',
      async (client) => {
        await client.query('SELECT team.decide($1, $2, $3, $4)', [
          decision.submissionId,
          decision.approve,
          decision.note,
          this.teams.deskName(),
        ]);
      },
    );
  }
}

async function policyOf(client: PoolClient): Promise<ApprovalPolicy> {
  const { rows } = await client.query<{ approval_policy: ApprovalPolicy['policy']; hours: string }>(
    'SELECT approval_policy, extract(epoch FROM approval_ttl) / 3600 AS hours FROM team.settings',
  );
  return { policy: rows[0]!.approval_policy, approvalHours: Number(rows[0]!.hours) };
}
