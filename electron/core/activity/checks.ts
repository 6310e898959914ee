import type { ActivityCheck } from '../../../shared/activity/views';
import type { ActivityRepository } from './repository';
import { checkChains } from './verify';

/** Walks every chain on demand and keeps the last result (the view shows it without walking). */
export class ActivityChecks {
  private last: ActivityCheck | null = null;

  constructor(
    private readonly activity: ActivityRepository,
    private readonly now: () => string,
  ) {}

  run(): ActivityCheck {
    this.last = checkChains(this.activity.iterateChains(), this.now());
    return this.last;
  }

  lastResult(): ActivityCheck | null {
    return this.last;
  }
}
