import type { ActivityCheck } from '../../../shared/activity/views';
import type { DeskApi } from '../../../shared/contract';
import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';

/** The chain's state as the view shows it: the app's last check, or one asked for now. */
export class ChainCheck {
  result = $state.raw<ActivityCheck | null>(null);
  checking = $state(false);
  failure = $state<DeskError | null>(null);

  constructor(private readonly desk: DeskApi) {}

  /** The check the app made at start; one now if it has not made any yet. */
  async load(): Promise<void> {
    try {
      const last = await this.desk.activity.lastCheck({});
      if (last) this.result = last;
      else await this.verify();
    } catch (error) {
      this.failure = asDeskError(error);
    }
  }

  /** Walks every chain again ("Check again"). */
  async verify(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    this.failure = null;
    try {
      this.result = await this.desk.activity.verify({});
    } catch (error) {
      this.failure = asDeskError(error);
    } finally {
      this.checking = false;
    }
  }
}
