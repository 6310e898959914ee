import type { DeskApi, DeskEventOf } from '../../../../shared/contract';
import { TERMINAL_VERSION_STATUSES, type VersionStatus } from '../../../../shared/domain/constants';
import { isKind } from '../../../../shared/errors';
import type {
  DeskError,
  StrategyView,
  VersionDetail,
  VersionSummary,
} from '../../../../shared/views';
import { withSummary } from '../../versions/history';
import { asDeskError } from '../errors';

type StatusChanged = DeskEventOf<'version-status-changed'>;
type StrategyRef = { profileId: string; strategyId: string };

/** What the open strategy moves in the stores around it. */
export interface StrategyDetailHooks {
  /** The strategy was read as synced at `at`: the status bar's last sync follows. */
  synced(at: string): void;
  /** The strategy changed (an execution, a deletion, an acknowledgement): the sidebar reads again. */
  linesChanged(): void;
  /** A failure was acknowledged: the status bar's counts move. */
  figuresChanged(): void;
}

/**
 * The strategy open in the main area, fed by reads and by the session's event router: its view
 * (the settled strategy a status change carries replaces it in place), its history of versions
 * and the version open in detail. Views arrive in any order: each read or event takes the next
 * number when it is asked for (or heard), and one asked for before the view shown now is dropped,
 * so a slow read cannot bring back a rebalance an event already said has ended.
 */
export class StrategyDetail {
  strategy = $state.raw<StrategyView | null>(null);
  failure = $state<DeskError | null>(null);
  refreshing = $state(false);
  /** The desk says so (online, with a message) while a request waits long on the service. */
  serviceSlow = $state(false);
  readonly history: VersionHistory;
  /** The version shown in detail, while its screen is open. */
  version = $state.raw<OpenVersion | null>(null);

  private asked = 0;
  private shown = 0;

  constructor(
    private readonly api: DeskApi,
    readonly ref: StrategyRef,
    readonly hooks: StrategyDetailHooks,
  ) {
    this.history = new VersionHistory(api, ref);
  }

  /** The cached view, read when the strategy opens. */
  async load(): Promise<void> {
    const ticket = ++this.asked;
    this.strategy = null;
    this.failure = null;
    try {
      this.take(ticket, await this.api.strategies.get(this.ref));
    } catch (error) {
      this.failure = asDeskError(error);
    }
  }

  /** A tab changed the strategy (an execution, a deletion): the cached view is read again. */
  async reload(): Promise<void> {
    const ticket = ++this.asked;
    try {
      this.take(ticket, await this.api.strategies.get(this.ref));
    } catch {
      // The view shown stays; the next read or event brings the change.
    }
    this.hooks.linesChanged();
  }

  /** Reads the strategy and its holdings from the service again. */
  async refresh(): Promise<void> {
    this.refreshing = true;
    this.failure = null;
    try {
      const ticket = ++this.asked;
      this.take(ticket, await this.api.strategies.refresh(this.ref));
      this.hooks.linesChanged();
    } catch (error) {
      const e = asDeskError(error);
      // The manager cancelled it: the last synced view stays, nothing to report.
      if (!isKind(e, 'cancelled')) this.failure = e;
    } finally {
      this.refreshing = false;
    }
  }

  cancelRefresh(): void {
    this.api.strategies
      .cancelRefresh(this.ref)
      .catch((error: unknown) => (this.failure = asDeskError(error)));
  }

  /** Shows a version in detail (its screen closes it with `closeVersion`). */
  showVersion(versionId: string): OpenVersion {
    this.version?.close();
    const open = new OpenVersion(this.api, { ...this.ref, versionId }, this);
    this.version = open;
    void open.load();
    return open;
  }

  closeVersion(open: OpenVersion): void {
    open.close();
    if (this.version === open) this.version = null;
  }

  /** From the router: a version of this profile changed status. */
  applyStatusChange(event: StatusChanged): void {
    if (event.profileId !== this.ref.profileId || event.strategyId !== this.ref.strategyId) return;
    // A rebalance of this strategy ended: the event carries the strategy as the desk read it.
    const settled = event.settledStrategy;
    if (settled && settled.id === this.ref.strategyId) this.take(++this.asked, settled);
    this.history.apply(event.version);
    this.version?.applyStatusChange(event);
  }

  /** From the router: following a version went wrong, waits, or recovered. */
  applyTracking(event: DeskEventOf<'version-tracking-changed'>): void {
    if (this.version?.ref.versionId === event.versionId) void this.version.load();
  }

  /** From the router: the profile's service is (un)reachable, or slow. */
  applyConnectivity(event: DeskEventOf<'connectivity-changed'>): void {
    if (event.profileId === this.ref.profileId)
      this.serviceSlow = event.online && event.message !== null;
  }

  private take(ticket: number, view: StrategyView): void {
    if (ticket < this.shown) return;
    this.shown = ticket;
    this.strategy = view;
    this.hooks.synced(view.syncedAt);
  }
}

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
    private readonly ref: StrategyRef,
  ) {}

  /** A screen shows the history: read afresh. */
  open(): void {
    this.list = null;
    this.told = [];
    void this.load();
  }

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

  apply(line: VersionSummary): void {
    this.told.push(line);
    if (this.list) this.list = withSummary(this.list, line);
  }
}

/** The version open in detail: read when it opens and again as its status or following moves. */
export class OpenVersion {
  version = $state.raw<VersionDetail | null>(null);
  failure = $state<DeskError | null>(null);
  /** When each status was seen live on this screen (a version-status-changed event). */
  seen = $state<Partial<Record<VersionStatus, string>>>({});
  /** Why reading the strategy again after the rebalance failed. */
  strategyNote = $state<DeskError | null>(null);
  checking = $state(false);
  checkError = $state<DeskError | null>(null);
  acknowledging = $state(false);
  acknowledgeError = $state<DeskError | null>(null);

  private latest = 0;
  private alive = true;
  /** The strategy was read again once for this visit (or the event carried it). */
  private caughtUp = false;

  constructor(
    private readonly api: DeskApi,
    readonly ref: StrategyRef & { versionId: string },
    private readonly owner: StrategyDetail,
  ) {}

  async load(): Promise<void> {
    const ticket = ++this.latest;
    try {
      const v = await this.api.versions.get(this.ref);
      if (this.alive && ticket === this.latest) {
        this.version = v;
        this.failure = null;
        this.catchUpStrategy(v);
      }
    } catch (error) {
      if (this.alive && ticket === this.latest) this.failure = asDeskError(error);
    }
  }

  close(): void {
    this.alive = false;
  }

  applyStatusChange(event: StatusChanged): void {
    if (event.versionId !== this.ref.versionId) return;
    if (event.status && !this.seen[event.status]) this.seen[event.status] = nowIso();
    void this.load();
    // The rebalance ended: holdings changed, and a failed order makes the strategy liquidate-only.
    // The desk read the strategy as it ended (the event carries it to the strategy's view): only
    // when that read failed is the strategy asked for again.
    if (event.ended) {
      this.caughtUp = true;
      const settled = event.settledStrategy;
      if (!settled || settled.syncedAt < event.version.syncedAt) void this.refreshStrategy();
    }
  }

  /**
   * A rebalance that ended after the strategy was last synced changed its holdings (and a failed
   * order made it liquidate-only): read the strategy again, once per visit.
   */
  private catchUpStrategy(v: VersionDetail): void {
    if (this.caughtUp || !v.status || !TERMINAL_VERSION_STATUSES.has(v.status)) return;
    const strategy = this.owner.strategy;
    if (!strategy || strategy.syncedAt >= v.syncedAt) return;
    this.caughtUp = true;
    void this.refreshStrategy();
  }

  async refreshStrategy(): Promise<void> {
    this.strategyNote = null;
    try {
      await this.api.strategies.refresh({
        profileId: this.ref.profileId,
        strategyId: this.ref.strategyId,
      });
      void this.owner.reload();
    } catch (error) {
      this.strategyNote = asDeskError(error);
    }
  }

  /** The manager saw the failure: the status bar and the sidebar stop counting it. */
  async acknowledge(): Promise<void> {
    this.acknowledging = true;
    this.acknowledgeError = null;
    try {
      const acknowledged = await this.api.versions.acknowledgeFailure(this.ref);
      if (this.alive) this.version = acknowledged;
      this.owner.hooks.linesChanged();
      this.owner.hooks.figuresChanged();
    } catch (error) {
      if (this.alive) this.acknowledgeError = asDeskError(error);
    } finally {
      this.acknowledging = false;
    }
  }

  /** Polls the version now instead of at the tracker's next turn. */
  async checkNow(): Promise<void> {
    this.checking = true;
    this.checkError = null;
    try {
      const checked = await this.api.versions.checkNow(this.ref);
      if (this.alive) this.version = checked;
    } catch (error) {
      if (this.alive) this.checkError = asDeskError(error);
    } finally {
      this.checking = false;
    }
  }
}

/** The time now, as the desk writes times (a string: nothing here reacts to it). */
function nowIso(): string {
  return new Date(Date.now()).toISOString();
}
