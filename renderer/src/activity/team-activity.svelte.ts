import type { TeamActivityEntry, TeamActivityFilter } from '../../../shared/activity/team-views';
import type { DeskApi } from '../../../shared/contract';
import type { TeamMember } from '../../../shared/team/contract';
import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import { EntryWindow, PAGE_SIZE, type PageRequest } from './entry-window';

const SCROLL_SETTLE_MS = 40;
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
  total = $state<number | null>(null);
  failure = $state<DeskError | null>(null);
  revision = $state(0);
  /** The team's members, for the member filter and their names. */
  members = $state.raw<TeamMember[]>([]);

  private rows: EntryWindow<TeamActivityEntry, TeamActivityFilter> | null = null;
  private shown = { start: 0, end: 0 };
  private settle: ReturnType<typeof setTimeout> | undefined;
  private noticed: ReturnType<typeof setTimeout> | undefined;
  private leave: (() => void) | undefined;

  constructor(
    private readonly desk: DeskApi,
    readonly profileId: string,
  ) {}

  start(): void {
    this.leave = this.desk.events.on('team-changed', (event) => {
      if (event.profileId !== this.profileId || !event.connected) return;
      if (event.topic !== 'entry' && event.topic !== 'connection') return;
      clearTimeout(this.noticed);
      this.noticed = setTimeout(() => this.readTop(), NOTICE_SETTLE_MS);
    });
    this.apply();
    this.desk.team.members({ profileId: this.profileId }).then(
      ({ members }) => (this.members = members),
      // Without the list the filter offers every member only; the log reads without it.
      () => undefined,
    );
  }

  stop(): void {
    clearTimeout(this.settle);
    clearTimeout(this.noticed);
    this.leave?.();
    this.rows = null;
  }

  /** Reads the view again from the top with the filter as it stands now. */
  apply(): void {
    this.failure = null;
    this.rows = new EntryWindow<TeamActivityEntry, TeamActivityFilter>({
      profileId: this.profileId,
      ...(this.member && { member: this.member }),
      ...(this.kind && { kinds: [this.kind] }),
    });
    this.sync();
    this.fetch();
  }

  show(start: number, end: number): void {
    this.shown = { start, end };
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.fetch(), SCROLL_SETTLE_MS);
  }

  rowAt(index: number): TeamActivityEntry | undefined {
    void this.revision;
    return this.rows?.at(index);
  }

  private fetch(): void {
    const rows = this.rows;
    if (!rows) return;
    const end = rows.loaded ? this.shown.end : Math.max(this.shown.end, 1);
    for (const request of rows.missing(this.shown.start, end)) void this.read(rows, request);
  }

  private readTop(): void {
    const rows = this.rows;
    if (!rows?.loaded) return;
    void this.read(rows, rows.top());
  }

  private async read(
    rows: EntryWindow<TeamActivityEntry, TeamActivityFilter>,
    request: PageRequest,
  ): Promise<void> {
    rows.asked(request);
    try {
      const page = await this.desk.team.activity({
        ...rows.filter,
        offset: request.offset,
        limit: request.limit,
      });
      if (rows !== this.rows) return;
      // More written since than the newest page holds: the ones between would be missing.
      if (request.page === -1 && page.total - (rows.total ?? 0) >= PAGE_SIZE) {
        this.apply();
        return;
      }
      rows.received(request, page);
      this.sync();
      this.fetch();
    } catch (error) {
      rows.failed(request);
      if (rows === this.rows) this.failure = asDeskError(error);
    }
  }

  private sync(): void {
    this.total = this.rows?.total ?? null;
    this.revision++;
  }
}
