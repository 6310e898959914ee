import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import { teamActivityPage } from '../activity/team-log';
import { planOf, prepareExecution, type ConfirmationDeps } from '../execution/confirmation';
import { notFound } from '../errors';
import type { Store } from '../store';
import { approvalContent, TeamApprovals } from '../team/approvals';
import type { TeamConnections } from '../team/connection';
import { batchSubmission } from './team-batch';

export interface TeamServices extends ConfirmationDeps {
  store: Store;
  teams: TeamConnections;
}

/** The `team` area (docs/team.md): joining, the members, submitting and deciding. */
export function teamHandlers(services: TeamServices): DeskHandlers['team'] {
  const { store, teams } = services;
  const approvals = new TeamApprovals(teams);
  return {
    get: async ({ profileId }) => {
      if (!store.profiles.get(profileId)) throw notFound('This profile');
      const team = teams.teamOf(profileId);
      return { team: team && viewOf(team), desk: teams.deskName() };
    },
    join: async (input) => viewOf(await teams.join(input)),
    async leave({ profileId }) {
      await teams.leave(profileId);
      return { ok: true as const };
    },
    members: ({ profileId }) => approvals.members(profileId),
    submissions: ({ profileId }) => approvals.submissions(profileId),
    submission: ({ profileId, submissionId }) => approvals.submission(profileId, submissionId),
    /**
     * The confirmation the manager saw, read again (as executing will): the content submitted is
     * what executing it sends now, and the plan must still be the one shown.
     */
    async submit({ draftId, planKey }) {
      const draft = store.drafts.get(draftId);
      if (!draft) throw notFound('This draft');
      if (!teams.teamOf(draft.profileId))
        throw new DeskError({
          kind: 'invalid-input',
          message: 'This profile is not in a team: join one to submit for approval.',
        });
      const preview = await prepareExecution(services, draftId);
      const plan = planOf(services, draft, preview.targetUnconfirmed);
      if (preview.planKey !== planKey || plan.planKey !== planKey)
        throw new DeskError({
          kind: 'confirmation-outdated',
          message:
            'The draft, the holdings or the known target changed since the confirmation was shown: nothing was submitted; open it again.',
        });
      return approvals.submit(draft.profileId, {
        kind: 'draft',
        subject: draft.strategyId,
        title: `${plan.stored.name || draft.strategyId} — ${draft.name}`,
        content: approvalContent({
          strategyId: draft.strategyId,
          body: plan.prediction.body,
          knownVersionId: plan.target?.versionId ?? null,
          holdings: plan.holdings,
          planKey: plan.planKey,
        }),
      });
    },
    /** A batch's review as the manager would execute it, its acknowledgements given now. */
    async submitBatch(input) {
      const batch = store.batches.get(input.batchId);
      if (!batch) throw notFound('This batch');
      if (!teams.teamOf(batch.profileId))
        throw new DeskError({
          kind: 'invalid-input',
          message: 'This profile is not in a team: join one to submit for approval.',
        });
      return approvals.submit(batch.profileId, await batchSubmission(services, batch, input));
    },
    async decide({ profileId, submissionId, approve, note }) {
      await approvals.decide(profileId, { submissionId, approve, note });
      return { ok: true as const };
    },
    activity: ({ profileId, offset, limit, ...filter }) =>
      teams.withTeam(profileId, 'to read the team’s log', (client) =>
        teamActivityPage(client, filter, offset, limit),
      ),
  };
}

const viewOf = (team: NonNullable<ReturnType<TeamConnections['teamOf']>>) => ({
  host: team.host,
  port: team.port,
  database: team.database,
  member: team.member,
  caFile: team.caFile,
  joinedAt: team.joinedAt,
});
