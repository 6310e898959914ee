import type { ActivityCheck } from '../../../shared/activity/views';
import type { ActivityRepository } from './repository';
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
    // Small slices: the first screen's calls, served meanwhile, each wait one slice at most.
    const result = await checkChainsInSlices(this.activity.iterateChains(), this.now, {
      lastSeq,
      sliceSize: 200,
    });
    // A check asked for meanwhile walked the log as it is now: it stands.
    this.last ??= result;
    return result;
  }

  lastResult(): ActivityCheck | null {
    return this.last;
  }
}
