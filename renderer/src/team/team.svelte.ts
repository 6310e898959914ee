import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type {
  ApprovalPolicy,
  SubmissionView,
  TeamMember,
  TeamView,
} from '../../../shared/team/contract';

/**
 * A profile's team as the Team screen holds it: where its team store is, the members and their
 * roles, the policy, and the submissions. A `team-changed` event (a submission or a decision on
 * any desk, the listening connection lost or back) reads the submissions again: the notice names
 * what changed, the team store says what it is now.
 */
export class TeamStore {
  profileId = $state<string | null>(null);
  team = $state.raw<TeamView | null>(null);
  desk = $state('');
  members = $state.raw<TeamMember[]>([]);
  policy = $state.raw<ApprovalPolicy | null>(null);
  submissions = $state.raw<SubmissionView[]>([]);
  /** False while the desk's listening connection to the team store is lost. */
  connected = $state(true);

  constructor(private readonly api: DeskApi) {
    // One store per page (teamOf), listening as long as the page: the first screen carries none
    // of this code.
    api.events.on('team-changed', (event) => this.apply(event));
  }

  /** The profile's team, then (in a team) its members and submissions. */
  async load(profileId: string): Promise<void> {
    const { team, desk } = await this.api.team.get({ profileId });
    this.profileId = profileId;
    this.team = team;
    this.desk = desk;
    this.members = [];
    this.policy = null;
    this.submissions = [];
    if (!team) return;
    const [{ members, policy }, submissions] = await Promise.all([
      this.api.team.members({ profileId }),
      this.api.team.submissions({ profileId }),
    ]);
    if (this.profileId !== profileId) return;
    this.members = members;
    this.policy = policy;
    this.submissions = submissions;
  }

  async join(input: Parameters<DeskApi['team']['join']>[0]): Promise<void> {
    await this.api.team.join(input);
    await this.load(input.profileId);
  }

  async leave(profileId: string): Promise<void> {
    await this.api.team.leave({ profileId });
    await this.load(profileId);
  }

  async decide(submissionId: string, approve: boolean, note: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    await this.api.team.decide({ profileId, submissionId, approve, note });
    this.submissions = await this.api.team.submissions({ profileId });
  }

  apply(event: DeskEventOf<'team-changed'>): void {
    if (event.profileId !== this.profileId || !this.team) return;
    this.connected = event.connected;
    if (event.topic !== 'submission' && event.topic !== 'connection') return;
    if (!event.connected) return;
    const profileId = event.profileId;
    void this.api.team.submissions({ profileId }).then(
      (submissions) => {
        if (this.profileId === profileId) this.submissions = submissions;
      },
      // The screen shows the connection's state; the next notice reads again.
      () => undefined,
    );
  }
}

let store: TeamStore | null = null;

export function teamOf(session: { readonly api: DeskApi }): TeamStore {
  return (store ??= new TeamStore(session.api));
}
