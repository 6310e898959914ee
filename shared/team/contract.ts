import { z } from 'zod';
import { method, ok, profileRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { teamActivityFilter, teamActivityPage } from '../activity/team-views';
import { MAX_BATCH_STRATEGIES } from '../batches/states';
import { acknowledgement } from '../batches/views';

/**
 * A desk in a team (docs/team.md): the profile's team store on PostgreSQL, its members and
 * roles, and the approvals: a draft's confirmation submitted, another member deciding. The
 * member's password goes to the keychain on `join` and never comes back out.
 */

export const teamRole = z.enum(['drafter', 'approver', 'trader', 'model-admin']);
export type TeamRole = z.infer<typeof teamRole>;

export const teamView = z.object({
  host: z.string(),
  port: z.number().int(),
  database: z.string(),
  member: z.string(),
  caFile: z.string().nullable(),
  joinedAt: z.string(),
});
export type TeamView = z.infer<typeof teamView>;

export const teamMember = z.object({
  login: z.string(),
  displayName: z.string(),
  roles: z.array(teamRole),
});
export type TeamMember = z.infer<typeof teamMember>;

export const approvalPolicy = z.object({
  /** What needs an approval: every execution, batches' only, or nothing. */
  policy: z.enum(['every', 'batches', 'none']),
  approvalHours: z.number(),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicy>;

const position = z.object({ symbol: z.string(), weight: z.string() });

export const submissionView = z.object({
  id: uuid,
  kind: z.enum(['draft', 'batch']),
  /** The strategy the content would execute; a batch's id for a batch. */
  subject: z.string(),
  title: z.string(),
  state: z.enum(['submitted', 'approved', 'rejected', 'used']),
  submittedBy: z.string(),
  submittedFrom: z.string(),
  submittedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The weights the content would send, as the approver reads them (a draft's). */
  positions: z.array(position),
  /** A batch's strategies, each with the weights it would send ([] for a draft). */
  lines: z.array(
    z.object({
      strategyId: z.string(),
      strategyName: z.string(),
      /** Its target was uncertain, and the submitter acknowledged it. */
      acknowledged: z.boolean(),
      positions: z.array(position),
    }),
  ),
});
export type SubmissionView = z.infer<typeof submissionView>;

const hostName = z.string().trim().min(1, 'Enter the team store’s host').max(255);

export const teamContract = {
  /** The profile's team (null: a desk on its own) and this desk's name in the team's log. */
  get: method(profileRef, z.object({ team: teamView.nullable(), desk: z.string() })),
  /** Connects once as the member (checked), then keeps the password in the keychain. */
  join: method(
    z
      .object({
        profileId: uuid,
        host: hostName,
        port: z.number().int().min(1).max(65535),
        database: z.string().trim().min(1, 'Enter the team’s database').max(63),
        member: z.string().trim().min(1, 'Enter your member login').max(63),
        password: z.string().min(1, 'Enter your team password').max(1024),
        /** A managed server: its CA file, and TLS that checks the server's name (verify-full). */
        caFile: z.string().trim().min(1).max(4096).nullable(),
      })
      .strict(),
    teamView,
  ),
  leave: method(profileRef, ok),
  members: method(profileRef, z.object({ members: z.array(teamMember), policy: approvalPolicy })),
  /** Submissions waiting for a decision, then the latest decided, newest first. */
  submissions: method(profileRef, z.array(submissionView)),
  /** One submission as the team store holds it now (null: the team store has none by that id). */
  submission: method(
    z.object({ profileId: uuid, submissionId: uuid }).strict(),
    submissionView.nullable(),
  ),
  /** A draft's confirmation (its plan key as shown) submitted for another member's approval. */
  submit: method(
    z.object({ draftId: uuid, planKey: z.string().min(1).max(200) }).strict(),
    submissionView,
  ),
  /**
   * A batch's review submitted for approval, as it would be executed (the same unticked and
   * acknowledged as `batches.execute` takes): every included strategy's content read fresh and
   * checked against the review, each a line of the approval; each item at arm uses its line.
   */
  submitBatch: method(
    z
      .object({
        batchId: uuid,
        unticked: z.array(uuid).max(MAX_BATCH_STRATEGIES),
        acknowledged: z.array(acknowledgement).max(MAX_BATCH_STRATEGIES),
      })
      .strict(),
    submissionView,
  ),
  decide: method(
    z
      .object({
        profileId: uuid,
        submissionId: uuid,
        approve: z.boolean(),
        note: z.string().trim().max(500),
      })
      .strict(),
    ok,
  ),
  /**
   * A window of the team's log, newest first, each entry with the member who wrote it: read as
   * the desk's log is (the window's seqs from the filter's index, the total from the counts).
   */
  activity: method(
    teamActivityFilter
      .extend({
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(500),
      })
      .strict(),
    teamActivityPage,
  ),
};

/** Something changed in the team store (a notice on `desk_team`), or its listening connection. */
const teamChangedEvent = z.object({
  type: z.literal('team-changed'),
  profileId: uuid,
  topic: z.enum(['submission', 'model', 'assignment', 'entry', 'connection']),
  /** The submission's or model's id, an entry's number; null for an assignment or the connection. */
  key: z.string().nullable(),
  /** False while the listening connection is lost (it reconnects by itself). */
  connected: z.boolean(),
});

export const teamEvents = [teamChangedEvent] as const;
