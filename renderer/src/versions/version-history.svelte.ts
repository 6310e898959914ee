import type { DeskApi } from '../../../shared/contract';
import type { DeskError, VersionSummary } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import { withSummary } from './history';

/**
 * One strategy's history of versions, kept current as its versions move: each status change
 * carries the version's new line, so the list updates in place without a read.
 */
export class VersionHistory {
  /** Null until the first read answers. */
  list = $state.raw<VersionSummary[] | null>(null);
  failure = $state<DeskError | null>(null);
  /** Lines told by status changes, laid over a list read meanwhile (it may predate them). */
  private told: VersionSummary[] = [];

  constructor(
    private readonly api: DeskApi,
    private readonly ref: { profileId: string; strategyId: string },
  ) {}

  async load(): Promise<void> {
    const since = this.told.length;
    try {
      const listed = await this.api.versions.list(this.ref);
      this.list = this.told.slice(since).reduce(withSummary, listed);
      this.failure = null;
    } catch (error) {
      this.failure = asDeskError(error);
    }
  }

  /** Reads the history and follows its status changes; returns the function that stops. */
  follow(): () => void {
    const { profileId, strategyId } = this.ref;
    this.list = null;
    this.told = [];
    void this.load();
    return this.api.events.subscribe((event) => {
      if (event.type !== 'version-status-changed') return;
      if (event.profileId !== profileId || event.strategyId !== strategyId) return;
      this.told.push(event.version);
      if (this.list) this.list = withSummary(this.list, event.version);
    });
  }
}
