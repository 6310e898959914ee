import type { ActivityCheck } from '../../../shared/activity/views';
import { errorFields, type DeskLog } from '../log/logger';
import type { ActivityRepository } from '../store/repositories/activity';
import { checkChains, checkChainsInSlices } from './verify';

/** Walks every chain on demand and keeps the last result (the view shows it without walking). */
export class ActivityChecks {
  private last: ActivityCheck | null = null;

  constructor(
    private readonly activity: ActivityRepository,
    private readonly now: () => string,
  ) {}

  run(): ActivityCheck {
    this.last = checkChains(this.activity.iterateChains(), this.now(), this.activity.lastSeq());
    return this.last;
  }

  /** The walk at start: in slices, so the first screen's requests are answered meanwhile. */
  async runInBackground(): Promise<ActivityCheck> {
    const lastSeq = this.activity.lastSeq();
    const result = await checkChainsInSlices(this.activity.iterateChains(), this.now, { lastSeq });
    // A check asked for meanwhile walked the log as it is now: it stands.
    this.last ??= result;
    return result;
  }

  /**
   * Every chain is walked once the first screen is on its way, in slices off the start-up path;
   * a broken chain, or a walk that failed while the desk still runs, goes to the log.
   */
  checkAfterStart(log: Pick<DeskLog, 'error'>, closed: () => boolean): void {
    setImmediate(() => {
      if (closed()) return;
      this.runInBackground().then(
        (check) => {
          if (check.brokenAt) log.error('The activity log does not verify', { ...check.brokenAt });
        },
        (error: unknown) => {
          if (!closed()) log.error('The activity log could not be checked', errorFields(error));
        },
      );
    });
  }

  lastResult(): ActivityCheck | null {
    return this.last;
  }
}
