import type { DeskApi, DeskEvent } from '../../../../shared/contract';
import type { BookStore } from '../../book/book.svelte';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../../shared/book/flags';
import type { BookPage, BookSummary } from '../../../../shared/book/views';
import type { DeskError, ProfileView } from '../../../../shared/views';
import { asDeskError } from '../errors';
import { Connectivity } from './connectivity.svelte';
import { Profiles } from './profiles.svelte';
import { Strategies } from './strategies.svelte';

type Phase = 'loading' | 'welcome' | 'ready' | 'fatal';
/** How long the book's first read, made as a profile opens, stands in for the screen's own. */
const FIRST_READ_FRESH_MS = 5_000;
/** What the main area shows: the selected strategy, the profile's settings, or a new profile form. */
export type Screen = 'strategy' | 'profile' | 'add-profile';

/**
 * The app's frame: which phase it is in and what the main area shows. It owns the stores and
 * routes the desk's events to them; moves that span several stores (choosing a profile, removing
 * the last one) live here.
 */
export class DeskSession {
  phase = $state<Phase>('loading');
  fatal = $state<DeskError | null>(null);
  screen = $state<Screen>('strategy');

  readonly profiles: Profiles;
  readonly strategies: Strategies;
  readonly connectivity: Connectivity;

  /** The selected profile's book, once its screen was shown (its code loads with it). */
  book = $state.raw<BookStore | null>(null);

  /** The book's first rows, asked for as the profile opened (its screen's code loads meanwhile). */
  private firstBookRead: {
    profileId: string;
    summary: Promise<BookSummary>;
    page: Promise<BookPage>;
    at: number;
  } | null = null;
  private unsubscribe: (() => void) | undefined;
  private sidebarReload: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly api: DeskApi) {
    this.connectivity = new Connectivity(api, () => this.profiles.selectedId);
    this.profiles = new Profiles(api, () => void this.connectivity.refresh());
    this.strategies = new Strategies(api);
  }

  async start(): Promise<void> {
    try {
      this.unsubscribe = this.api.events.subscribe((event) => this.onEvent(event));
      await this.profiles.reload();
      this.connectivity.start();
      const first = this.profiles.remembered();
      if (!first) {
        this.phase = 'welcome';
        return;
      }
      this.phase = 'ready';
      await this.selectProfile(first.id);
    } catch (error) {
      this.fatal = asDeskError(error);
      this.phase = 'fatal';
    }
  }

  stop(): void {
    this.connectivity.stop();
    this.book?.stop();
    clearTimeout(this.sidebarReload);
    this.unsubscribe?.();
  }

  /** The book of the selected profile: the one kept, or this new one. */
  bookOf(profileId: string, make: () => BookStore): BookStore {
    if (this.book?.profileId === profileId) return this.book;
    this.book?.stop();
    const book = make();
    const first = this.firstBookRead;
    this.firstBookRead = null;
    // Only while fresh: a strategy opened first, the book opened later reads anew.
    if (first?.profileId === profileId && Date.now() - first.at < FIRST_READ_FRESH_MS)
      book.useFirstRead(first);
    this.book = book;
    return book;
  }

  private readBookFirst(profileId: string): void {
    if (this.book?.profileId === profileId) return;
    const summary = this.api.book.summary({ profileId });
    const page = this.api.book.rows({ profileId, query: WHOLE_BOOK, offset: 0, limit: BOOK_PAGE });
    // Unread (a strategy opens instead), they fail quietly.
    summary.catch(() => undefined);
    page.catch(() => undefined);
    this.firstBookRead = { profileId, summary, page, at: Date.now() };
  }

  /** Shows the profile's book in the main area (its first screen once it has strategies). */
  openBook(): void {
    this.strategies.close();
    this.screen = 'strategy';
  }

  async selectProfile(profileId: string, screen: Screen = 'strategy'): Promise<void> {
    if (this.book && this.book.profileId !== profileId) {
      this.book.stop();
      this.book = null;
    }
    this.profiles.select(profileId);
    // The book is the profile's first screen: its first rows are read while its code loads.
    if (screen === 'strategy') this.readBookFirst(profileId);
    this.screen = screen;
    await this.strategies.show(profileId);
  }

  openStrategy(strategyId: string): void {
    this.strategies.open(strategyId);
    this.screen = 'strategy';
  }

  async addStrategy(strategyId: string): Promise<void> {
    await this.strategies.add(strategyId);
    this.screen = 'strategy';
  }

  /** Removes a profile; without any left, the app welcomes the manager again. */
  async removeProfile(profileId: string): Promise<void> {
    await this.profiles.remove(profileId);
    const list = this.profiles.list;
    if (list.length === 0) {
      this.profiles.select(null);
      await this.strategies.show(null);
      this.phase = 'welcome';
      return;
    }
    if (this.profiles.selectedId === profileId) await this.selectProfile(list[0]!.id);
  }

  /**
   * A new profile becomes the selected one. One made with the form opens its page, where
   * the manager tests the connection; the sandbox goes straight to its strategies.
   */
  async adoptProfile(profile: ProfileView, screen: Screen = 'profile'): Promise<void> {
    this.profiles.put(profile);
    this.phase = 'ready';
    this.profiles.justCreated = screen === 'profile' ? profile.id : null;
    await this.selectProfile(profile.id, screen);
    void this.connectivity.refresh();
  }

  async useSandbox(): Promise<void> {
    await this.adoptProfile(await this.api.profiles.useSandbox({}), 'strategy');
  }

  /** The book of this profile, when its screen holds one. */
  private bookFor(profileId: string): BookStore | null {
    return this.book?.profileId === profileId ? this.book : null;
  }

  private onEvent(event: DeskEvent): void {
    switch (event.type) {
      // The Activity view listens for its own entries; nothing here changes with one.
      case 'activity-appended':
      case 'menu-command':
        return;
      case 'export-progress':
        this.book?.applyExportProgress(event);
        return;
      case 'book-rows-changed':
        this.bookFor(event.profileId)?.applyRows(event.rows, event.counts);
        return;
      case 'book-job-changed':
        this.bookFor(event.profileId)?.applyJob(event.job);
        // Strategies added many at once join the sidebar, read again at most every 2 s.
        if (event.job.kind === 'add' && event.profileId === this.strategies.profileId)
          this.reloadSidebar(event.job.state !== 'running');
        return;
      case 'version-status-changed':
        // The event carries the status bar's figures and the strategy's sidebar line: no reads.
        this.connectivity.applyFigures(event.appStatus);
        this.strategies.applyLine(event.profileId, event.strategy);
        this.bookFor(event.profileId)?.invalidate();
        return;
      case 'connectivity-changed':
        this.connectivity.applyChange(event);
        return;
      default:
        void this.connectivity.refresh();
        if (event.profileId === this.strategies.profileId) void this.strategies.load();
        if (event.type === 'journal-changed') this.bookFor(event.profileId)?.invalidate();
    }
  }

  private reloadSidebar(now: boolean): void {
    if (now) {
      clearTimeout(this.sidebarReload);
      this.sidebarReload = undefined;
      void this.strategies.load();
      return;
    }
    this.sidebarReload ??= setTimeout(() => {
      this.sidebarReload = undefined;
      void this.strategies.load();
    }, 2_000);
  }
}
