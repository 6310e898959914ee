import type { DeskApi, DeskEvent } from '../../../shared/contract';
import type { AppStatus, DeskError, ProfileView, StrategyListItem } from '../../../shared/views';
import { asDeskError } from './errors';

const PROFILE_KEY = 'strategy-desk.profile';
const STRATEGY_KEY = 'strategy-desk.strategy';
const STATUS_POLL_MS = 15_000;
/** While offline, how often the app asks the service again (one token request). */
const OFFLINE_PROBE_MS = 5_000;

type Phase = 'loading' | 'welcome' | 'ready' | 'fatal';
/** What the main area shows: the selected strategy, the profile's settings, or a new profile form. */
export type Screen = 'strategy' | 'profile' | 'add-profile';

export interface ProfileChanges {
  name?: string;
  baseUrl?: string;
  clientId?: string;
  secret?: string;
}

/** The app's frame state: profiles, the selected profile's strategies, the status bar. */
export class DeskState {
  phase = $state<Phase>('loading');
  fatal = $state<DeskError | null>(null);
  profiles = $state<ProfileView[]>([]);
  profileId = $state<string | null>(null);
  strategies = $state<StrategyListItem[]>([]);
  strategiesLoading = $state(false);
  strategiesError = $state<DeskError | null>(null);
  strategyId = $state<string | null>(null);
  status = $state<AppStatus | null>(null);
  screen = $state<Screen>('strategy');
  /** Counts File › Export CSV… choices in the desktop menu; the strategy pane opens Reports. */
  exportRequests = $state(0);
  /** Why the service did not answer, from the last connectivity-changed event. */
  offlineMessage = $state<string | null>(null);
  /** Set after a profile was created, so its page suggests testing the connection. */
  justCreated = $state<string | null>(null);

  readonly profile = $derived(this.profiles.find((p) => p.id === this.profileId) ?? null);
  readonly online = $derived(this.status?.online ?? true);

  private timer: ReturnType<typeof setInterval> | undefined;
  private probeTimer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly desk: DeskApi) {}

  async start(): Promise<void> {
    try {
      this.unsubscribe = this.desk.events.subscribe((event) => this.onEvent(event));
      const profiles = await this.desk.profiles.list({});
      this.profiles = profiles;
      void this.refreshStatus();
      this.timer = setInterval(() => void this.refreshStatus(), STATUS_POLL_MS);
      if (profiles.length === 0) {
        this.phase = 'welcome';
        return;
      }
      const remembered = localStorage.getItem(PROFILE_KEY);
      const first = profiles.find((p) => p.id === remembered) ?? profiles[0]!;
      this.phase = 'ready';
      await this.selectProfile(first.id);
    } catch (error) {
      this.fatal = asDeskError(error);
      this.phase = 'fatal';
    }
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.probeTimer);
    this.unsubscribe?.();
  }

  async selectProfile(profileId: string, screen: Screen = 'strategy'): Promise<void> {
    this.profileId = profileId;
    this.strategyId = null;
    this.strategies = [];
    this.heardLines = {};
    this.screen = screen;
    localStorage.setItem(PROFILE_KEY, profileId);
    await this.loadStrategies();
    // Back where the manager was: the strategy last open with this profile.
    const last = localStorage.getItem(`${STRATEGY_KEY}.${profileId}`);
    if (this.profileId === profileId && this.strategyId === null) {
      if (this.strategies.some((s) => s.id === last)) this.strategyId = last;
    }
  }

  /** Shows a strategy in the main area. */
  openStrategy(strategyId: string): void {
    this.strategyId = strategyId;
    this.screen = 'strategy';
    if (this.profileId) localStorage.setItem(`${STRATEGY_KEY}.${this.profileId}`, strategyId);
  }

  async reloadProfiles(): Promise<void> {
    this.profiles = await this.desk.profiles.list({});
  }

  async updateProfile(profileId: string, changes: ProfileChanges): Promise<ProfileView> {
    const updated = await this.desk.profiles.update({ profileId, ...changes });
    this.profiles = this.profiles.map((p) => (p.id === updated.id ? updated : p));
    void this.refreshStatus();
    return updated;
  }

  /** Asks the service for a token; the granted scopes are stored with the profile. */
  async testConnection(profileId: string): Promise<string[]> {
    try {
      const { grantedScopes } = await this.desk.profiles.testConnection({ profileId });
      await this.reloadProfiles();
      return grantedScopes;
    } finally {
      void this.refreshStatus();
    }
  }

  /** Removes the profile (and, in the desk, its secret from the keychain). */
  async removeProfile(profileId: string): Promise<void> {
    await this.desk.profiles.remove({ profileId });
    await this.reloadProfiles();
    void this.refreshStatus();
    if (this.profiles.length === 0) {
      this.profileId = null;
      this.strategies = [];
      this.strategyId = null;
      localStorage.removeItem(PROFILE_KEY);
      this.phase = 'welcome';
      return;
    }
    if (this.profileId === profileId) await this.selectProfile(this.profiles[0]!.id);
  }

  async removeStrategy(strategyId: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    await this.desk.strategies.remove({ profileId, strategyId });
    if (this.strategyId === strategyId) this.strategyId = null;
    await this.loadStrategies();
  }

  async loadStrategies(): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    this.strategiesLoading = true;
    try {
      const since = this.heard;
      const list = await this.desk.strategies.list({ profileId });
      if (this.profileId !== profileId) return;
      this.strategies = this.withHeardLines(list, since);
      this.strategiesError = null;
    } catch (error) {
      if (this.profileId === profileId) this.strategiesError = asDeskError(error);
    } finally {
      if (this.profileId === profileId) this.strategiesLoading = false;
    }
  }

  async refreshStatus(): Promise<void> {
    try {
      const since = this.heard;
      const status = await this.desk.app.status({});
      this.status =
        since !== this.heard && this.heardFigures ? { ...status, ...this.heardFigures } : status;
      if (this.status.online) this.offlineMessage = null;
      this.watchConnectivity();
    } catch {
      // The status bar keeps its last known state; calls that matter report their own errors.
    }
  }

  /** While offline, ask the service again now and then, so "back online" needs no click. */
  private watchConnectivity(): void {
    if (this.online) {
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      return;
    }
    this.probeTimer ??= setInterval(() => void this.probe(), OFFLINE_PROBE_MS);
  }

  /**
   * One attempt to reach the service of the selected profile; failures stay in the status.
   * Never two at once: a slow service would otherwise pile up probes every few seconds.
   */
  async probe(): Promise<void> {
    const profileId = this.profileId;
    if (!profileId || this.probing) return;
    this.probing = true;
    try {
      await this.desk.profiles.testConnection({ profileId }).catch(() => undefined);
    } finally {
      this.probing = false;
    }
    await this.refreshStatus();
  }
  private probing = false;

  /**
   * A new profile becomes the selected one. One made with the form opens its page, where
   * the manager tests the connection; the sandbox goes straight to its strategies.
   */
  async adoptProfile(profile: ProfileView, screen: Screen = 'profile'): Promise<void> {
    this.profiles = [...this.profiles.filter((p) => p.id !== profile.id), profile];
    this.phase = 'ready';
    this.justCreated = screen === 'profile' ? profile.id : null;
    await this.selectProfile(profile.id, screen);
    void this.refreshStatus();
  }

  async useSandbox(): Promise<void> {
    await this.adoptProfile(await this.desk.profiles.useSandbox({}), 'strategy');
  }

  async addStrategy(strategyId: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    const added = await this.desk.strategies.add({ profileId, strategyId });
    await this.loadStrategies();
    this.openStrategy(added.id);
  }

  /** The event carries the status bar's figures and the strategy's sidebar line: no reads. */
  private applyStatusChange(event: Extract<DeskEvent, { type: 'version-status-changed' }>): void {
    const heard = ++this.heard;
    this.heardFigures = event.appStatus;
    if (this.status) this.status = { ...this.status, ...event.appStatus };
    else void this.refreshStatus();
    if (event.profileId !== this.profileId) return;
    const line = event.strategy;
    if (line) this.heardLines[line.id] = { line, heard };
    if (line && this.strategies.some((s) => s.id === line.id)) {
      this.strategies = this.strategies.map((s) => (s.id === line.id ? line : s));
    } else {
      void this.loadStrategies();
    }
  }

  /**
   * Status changes heard while a read was under way may be newer than its answer: they are laid
   * over it (a strategy's line unless the answer comes from a later sync of that strategy).
   */
  private heard = 0;
  private heardFigures: Pick<AppStatus, 'runningVersions' | 'lastSyncAt'> | null = null;
  private heardLines: Record<string, { line: StrategyListItem; heard: number }> = {};

  private withHeardLines(list: StrategyListItem[], since: number): StrategyListItem[] {
    return list.map((s) => {
      const heard = this.heardLines[s.id];
      return heard && heard.heard > since && heard.line.syncedAt >= s.syncedAt ? heard.line : s;
    });
  }

  private onEvent(event: DeskEvent): void {
    // Neither changes the frame: the export's screen and the Activity view follow their own.
    if (event.type === 'export-progress' || event.type === 'activity-appended') return;
    if (event.type === 'menu-command') {
      if (event.command === 'export-csv') this.exportRequests++;
      return;
    }
    if (event.type === 'version-status-changed') {
      this.applyStatusChange(event);
      return;
    }
    if (event.type === 'connectivity-changed' && event.profileId === this.profileId) {
      this.offlineMessage = event.online ? null : event.message;
    }
    void this.refreshStatus();
    if (event.profileId === this.profileId && event.type !== 'connectivity-changed') {
      void this.loadStrategies();
    }
  }
}
