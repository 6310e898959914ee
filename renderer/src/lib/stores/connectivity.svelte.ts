import type { DeskApi, DeskEvent } from '../../../../shared/contract';
import { Throttle } from '../../../../shared/throttle';
import type { AppStatus } from '../../../../shared/views';

const STATUS_POLL_MS = 15_000;
/** Events that move figures they do not carry read the status again at most this often. */
const STATUS_REREAD_MS = 500;
/** While offline, how often the app asks the service again (one token request). */
const OFFLINE_PROBE_MS = 5_000;

/** What the offline banner and the status bar show of the service's reach. */
export type ConnectivityState = 'online' | 'offline' | 'probing';

type StatusFigures = Pick<
  AppStatus,
  'runningVersions' | 'lastSyncAt' | 'needsAttention' | 'failedUnacknowledged'
>;

/**
 * The app's status (the status bar's figures, whether the service answers) and, while it does
 * not, the probes that find it back without a click.
 */
export class Connectivity {
  status = $state<AppStatus | null>(null);
  /** Why the service did not answer, from the last connectivity-changed event. */
  offlineMessage = $state<string | null>(null);
  probing = $state(false);

  readonly online = $derived(this.status?.online ?? true);
  readonly state: ConnectivityState = $derived(
    this.probing ? 'probing' : this.online ? 'online' : 'offline',
  );

  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private probeTimer: ReturnType<typeof setInterval> | undefined;
  /**
   * Figures heard from status changes while a read was under way may be newer than its answer:
   * they are laid over it.
   */
  private heard = 0;
  private heardFigures: StatusFigures | null = null;
  /** The newest strategy read the screens took: the last sync is at least that. */
  private syncedAtLeast: string | null = null;
  private readonly reread = new Throttle(STATUS_REREAD_MS, () => void this.refresh());

  constructor(
    private readonly api: DeskApi,
    /** The profile whose service a probe asks. */
    private readonly probedProfile: () => string | null,
  ) {}

  start(): void {
    void this.refresh();
    this.pollTimer = setInterval(() => void this.refresh(), STATUS_POLL_MS);
  }

  stop(): void {
    this.reread.cancel();
    clearInterval(this.pollTimer);
    clearInterval(this.probeTimer);
  }

  async refresh(): Promise<void> {
    try {
      const since = this.heard;
      const status = await this.api.app.status({});
      const read =
        since !== this.heard && this.heardFigures ? { ...status, ...this.heardFigures } : status;
      this.status = { ...read, lastSyncAt: latest(read.lastSyncAt, this.syncedAtLeast) };
      if (this.status.online) this.offlineMessage = null;
      this.watch();
    } catch {
      // The status bar keeps its last known state; calls that matter report their own errors.
    }
  }

  /**
   * Something moved figures its event does not carry (the journal's unknown executions of every
   * profile): read once a burst of such events is over, not once per event.
   */
  refreshSoon(): void {
    this.reread.soon();
  }

  /** A version's status change carries the figures it moves: no read. */
  applyFigures(figures: StatusFigures): void {
    this.heard++;
    this.heardFigures = figures;
    // The last sync never goes back to an older figure than a screen already showed.
    const lastSyncAt = latest(figures.lastSyncAt, this.syncedAtLeast);
    if (this.status) this.status = { ...this.status, ...figures, lastSyncAt };
    else void this.refresh();
  }

  /**
   * A screen took a strategy as synced at `at` (a refresh, an event): the status bar's last sync
   * moves with it rather than at the next status read.
   */
  noteSynced(at: string): void {
    this.syncedAtLeast = latest(this.syncedAtLeast, at);
    if (this.status)
      this.status = { ...this.status, lastSyncAt: latest(this.status.lastSyncAt, at) };
  }

  /** The desk found the selected profile's service (un)reachable: the status says how now. */
  applyChange(event: Extract<DeskEvent, { type: 'connectivity-changed' }>): void {
    if (event.profileId === this.probedProfile())
      this.offlineMessage = event.online ? null : event.message;
    void this.refresh();
  }

  /**
   * One attempt to reach the service of the selected profile; failures stay in the status.
   * Never two at once: a slow service would otherwise pile up probes every few seconds.
   */
  async probe(): Promise<void> {
    const profileId = this.probedProfile();
    if (!profileId || this.probing) return;
    this.probing = true;
    try {
      await this.api.profiles.testConnection({ profileId }).catch(() => undefined);
    } finally {
      this.probing = false;
    }
    await this.refresh();
  }

  /** While offline, ask the service again now and then, so "back online" needs no click. */
  private watch(): void {
    if (this.online) {
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      return;
    }
    this.probeTimer ??= setInterval(() => void this.probe(), OFFLINE_PROBE_MS);
  }
}

/** The later of two instants (ISO 8601 in UTC, as the desk writes them). */
function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}
