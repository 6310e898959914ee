import type { DeskApi, DeskEvent } from '../../../shared/contract';
import type { AppStatus, DeskError, ProfileView, StrategyListItem } from '../../../shared/views';
import { asDeskError } from './errors';

const PROFILE_KEY = 'strategy-desk.profile';
const STATUS_POLL_MS = 15_000;

type Phase = 'loading' | 'welcome' | 'ready' | 'fatal';

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
  /** The manager asked to add a profile while one exists: show the connect form. */
  addingProfile = $state(false);

  readonly profile = $derived(this.profiles.find((p) => p.id === this.profileId) ?? null);

  private timer: ReturnType<typeof setInterval> | undefined;
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
    this.unsubscribe?.();
  }

  async selectProfile(profileId: string): Promise<void> {
    this.profileId = profileId;
    this.strategyId = null;
    this.strategies = [];
    this.addingProfile = false;
    localStorage.setItem(PROFILE_KEY, profileId);
    await this.loadStrategies();
  }

  async loadStrategies(): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    this.strategiesLoading = true;
    try {
      const list = await this.desk.strategies.list({ profileId });
      if (this.profileId !== profileId) return;
      this.strategies = list;
      this.strategiesError = null;
    } catch (error) {
      if (this.profileId === profileId) this.strategiesError = asDeskError(error);
    } finally {
      if (this.profileId === profileId) this.strategiesLoading = false;
    }
  }

  async refreshStatus(): Promise<void> {
    try {
      this.status = await this.desk.app.status({});
    } catch {
      // The status bar keeps its last known state; calls that matter report their own errors.
    }
  }

  /** A new profile (the form or the sandbox) becomes the selected one. */
  async adoptProfile(profile: ProfileView): Promise<void> {
    this.profiles = [...this.profiles.filter((p) => p.id !== profile.id), profile];
    this.phase = 'ready';
    await this.selectProfile(profile.id);
    void this.refreshStatus();
  }

  async useSandbox(): Promise<void> {
    await this.adoptProfile(await this.desk.profiles.useSandbox({}));
  }

  async addStrategy(strategyId: string): Promise<void> {
    const profileId = this.profileId;
    if (!profileId) return;
    const added = await this.desk.strategies.add({ profileId, strategyId });
    await this.loadStrategies();
    this.strategyId = added.id;
  }

  private onEvent(event: DeskEvent): void {
    if (event.type === 'export-progress') return;
    void this.refreshStatus();
    if (event.profileId === this.profileId && event.type !== 'connectivity-changed') {
      void this.loadStrategies();
    }
  }
}
