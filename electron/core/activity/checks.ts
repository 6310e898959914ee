import type { ActivityCheck } from '../../../shared/activity/views';
import { errorFields, type DeskLog } from '../log/logger';
import type { ActivityRepository } from '../store/repositories/activity';
import { checkChainsInSlices } from './verify';

/** The page still draws what the last call answered: a second without calls ends the first screen. */
const QUIET_MS = 1_000;
const LATEST_MS = 5_000;

/** Walks every chain on demand and keeps the last result (the view shows it without walking). */
export class ActivityChecks {
  private last: ActivityCheck | null = null;

  constructor(
    private readonly activity: ActivityRepository,
    private readonly now: () => string,
  ) {}

  private walking: Promise<ActivityCheck> | null = null;

  /**
   * Walks every chain in slices, so the desk's other calls (an execute's answer, a batch in
   * flight) wait one slice at most, never the whole log. Asked again while a walk runs, that walk
   * answers: it reads the log as it is now.
   */
  run(): Promise<ActivityCheck> {
    this.walking ??= checkChainsInSlices(this.activity.iterateChains(), this.now, {
      lastSeq: this.activity.lastSeq(),
      // Small slices: a call served meanwhile waits for 200 entries' hashes at most.
      sliceSize: 200,
    })
      .then((result) => (this.last = result))
      .finally(() => (this.walking = null));
    return this.walking;
  }

  /**
   * Every chain is walked once the first screen is shown, in slices off the start-up path: after
   * the first screen's calls have begun, at the first moment with no call for QUIET_MS (they come
   * in bursts), at the latest LATEST_MS after start. Not before any call came: the page may take
   * longer than QUIET_MS to load its code, and a walk begun meanwhile would stand in the way of
   * the first screen's calls. A walk of 100,000 entries shares the main thread for a second or
   * two. A broken chain, or a walk that failed while the desk still runs, goes to the log.
   * Returns what stops the wait (the desk closing).
   */
  checkAfterStart(
    log: Pick<DeskLog, 'error'>,
    closed: () => boolean,
    /**
     * When the desk last answered a call that puts the walk off (Date.now()); null while no
     * call at all came (a call asking for the walk's result counts as one that came, at start).
     */
    lastCallAt: () => number | null,
  ): () => void {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const walkWhenQuiet = () => {
      timer = undefined;
      if (closed()) return;
      const now = Date.now();
      const last = lastCallAt();
      const quietFor = last === null ? 0 : now - Math.max(started, last);
      if (quietFor < QUIET_MS && now - started < LATEST_MS) {
        timer = setTimeout(walkWhenQuiet, QUIET_MS - quietFor);
        return;
      }
      this.run().then(
        (check) => {
          if (check.brokenAt) log.error('The activity log does not verify', { ...check.brokenAt });
        },
        (error: unknown) => {
          if (!closed()) log.error('The activity log could not be checked', errorFields(error));
        },
      );
    };
    timer = setTimeout(walkWhenQuiet, QUIET_MS);
    return () => clearTimeout(timer);
  }

  lastResult(): ActivityCheck | null {
    return this.last;
  }
}
