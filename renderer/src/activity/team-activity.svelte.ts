import type { TeamActivityEntry, TeamActivityFilter } from '../../../shared/activity/team-views';
import type { DeskApi } from '../../../shared/contract';
import type { TeamMember } from '../../../shared/team/contract';
import { LogRows } from './log-rows.svelte';

/** Notices of new entries come in bursts (an execution writes several): one read for a burst. */
const NOTICE_SETTLE_MS = 100;

/**
 * The team's log as the Activity view shows it (docs/team.md): read from the team store a page
 * at a time as rows come into view, as the desk's own log is (entry-window.ts), filtered by
 * member and kind. A `team-changed` notice of a new entry (or the listening connection back)
 * reads the newest page again, and what was written since joins at the top.
 */
export class TeamActivityStore {
  /** A member's login, or '' for every member. */
  member = $state('');
  /** A kind of the team's log, or '' for every kind. */
  kind = $state('');
  /** The team's members, for the member filter and their names. */
  members = $state.raw<TeamMember[]>([]);
  /** The rows of the filter, read a page at a time as they come into view. */
  readonly log: LogRows<TeamActivityEntry, TeamActivityFilter>;

  private noticed: ReturnType<typeof setTimeout> | undefined;
  private leave: (() => void) | undefined;

  constructor(
    private readonly desk: DeskApi,
    readonly profileId: string,
  ) {
    this.log = new LogRows((request) => desk.team.activity(request));
  }

  start(): void {
    this.leave = this.desk.events.on('team-changed', (event) => {
      if (event.profileId !== this.profileId || !event.connected) return;
      if (event.topic !== 'entry' && event.topic !== 'connection') return;
      clearTimeout(this.noticed);
      this.noticed = setTimeout(() => this.log.readTop(), NOTICE_SETTLE_MS);
    });
    this.apply();
    this.desk.team.members({ profileId: this.profileId }).then(
      ({ members }) => (this.members = members),
      // Without the list the filter offers every member only; the log reads without it.
      () => undefined,
    );
  }

  stop(): void {
    clearTimeout(this.noticed);
    this.leave?.();
    this.log.stop();
  }

  /** Reads the view again from the top with the filter as it stands now. */
  apply(): void {
    this.log.open({
      profileId: this.profileId,
      ...(this.member && { member: this.member }),
      ...(this.kind && { kinds: [this.kind] }),
    });
  }
}
