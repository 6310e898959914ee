import type { DeskApi, DeskEvent, DeskEventOf } from '../../../../shared/contract';
import type { BookStore } from '../../book/book.svelte';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../../shared/book/first-page';
import type { BookPage, BookSummary } from '../../../../shared/book/views';
import type { DeskError, ProfileView } from '../../../../shared/views';
import { whenIdle } from '../after-paint';
import { asDeskError } from '../errors';
import type { Batches } from '../../batches/batches.svelte';
import type { DecisionNotices } from '../../team/decisions';
import { Listeners } from '../../../../shared/listeners';
import type { ModelsStore } from '../../models/models.svelte';
import { Connectivity } from './connectivity.svelte';
import { Journal } from './journal.svelte';
import { Profiles } from './profiles.svelte';
import { Strategies } from './strategies.svelte';
import type { StrategyDetail, StrategyDetailHooks } from './strategy-detail.svelte';

type Phase = 'loading' | 'welcome' | 'ready' | 'fatal';
/** How long the book's first read, made as a profile opens, stands in for the screen's own. */
const FIRST_READ_FRESH_MS = 5_000;
/** The sidebar's list is read at the latest this long after the book's first rows came. */
const SIDEBAR_AFTER_ROWS_MS = 1_000;
/** Once the rows are drawn, the sidebar waits this long at most for the page to be idle. */
const SIDEBAR_IDLE_WAIT_MS = 300;
/** What the main area shows: the selected strategy, the profile's settings, or a new profile form. */
export type Screen = 'strategy' | 'profile' | 'add-profile' | 'batches';
/** The strategy pane's tabs, in order. */
export const STRATEGY_TABS = ['Overview', 'Drafts', 'Versions', 'Reports', 'Activity'] as const;
export type StrategyTabName = (typeof STRATEGY_TABS)[number];
/** Given a move away, says whether it holds it (asks first, then makes it or stays). */
export type LeaveGuard = (move: () => void) => boolean;

/**
 * The app's frame: which phase it is in and what the main area shows (the screen, the open
 * strategy's tab and version). It owns the stores and is the renderer's one subscriber to the
 * desk's events, routing each to the stores that own its data (`route`); moves that span several
 * stores (choosing a profile, removing the last one) live here.
 */
export class DeskSession {
  phase = $state<Phase>('loading');
  fatal = $state<DeskError | null>(null);
  screen = $state<Screen>('strategy');
  /** The open strategy's tab, and the version its Versions tab shows in detail (null: the list). */
  tab = $state<StrategyTabName>('Overview');
  versionId = $state<string | null>(null);
  /** The strategy open in the main area, while its pane is open. */
  detail = $state.raw<StrategyDetail | null>(null);

  readonly profiles: Profiles;
  readonly strategies: Strategies;
  readonly connectivity: Connectivity;
  /**
   * The batch shown and its progress (models' batches): made by the first screen that shows a
   * batch (`batchesOf`), whose chunk carries its code; until then no batch is shown.
   */
  batches: Batches | null = null;
  /**
   * The model library as the screens hold it (the Models screen, the Overview's "Follows"): made
   * by the first that shows a model (`modelsOf`), whose chunk carries its code.
   */
  models: ModelsStore | null = null;
  readonly journal: Journal;
  /** Screens that show a profile's activity log as it grows (the Activity views). */
  readonly activityHeard = new Listeners<DeskEventOf<'activity-appended'>>();
  /** CSV exports under way, told how many rows are written. */
  readonly exportProgress = new Listeners<DeskEventOf<'export-progress'>>();

  /** The selected profile's book, once its screen was shown (its code loads with it). */
  book = $state.raw<BookStore | null>(null);

  /** What the screen shown asks before it is left (unsaved edits), while it is shown. */
  private leaveGuard: LeaveGuard | null = null;
  /** The book's first rows, asked for as the profile opened (its screen's code loads meanwhile). */
  private firstBookRead: FirstBookRead | null = null;
  private unsubscribe: (() => void) | undefined;
  private decisions: Promise<DecisionNotices> | null = null;
  private sidebarReload: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly api: DeskApi) {
    this.connectivity = new Connectivity(api, () => this.profiles.selectedId);
    this.profiles = new Profiles(api, () => void this.connectivity.refresh());
    this.strategies = new Strategies(api);
    this.journal = new Journal(api);
  }

  async start(): Promise<void> {
    try {
      this.unsubscribe = this.api.events.subscribe((event) => this.route(event));
      // The profiles and the book's first rows in one answer: the first screen waits for one
      // round trip to the desk, not for the profiles and then the book.
      const opened = await this.api.app.firstScreen({ profileId: this.profiles.rememberedId() });
      this.profiles.list = opened.profiles;
      this.connectivity.start();
      const first = this.profiles.remembered();
      if (!first) {
        this.phase = 'welcome';
        return;
      }
      this.phase = 'ready';
      const { book } = opened;
      if (book?.profileId === first.id)
        this.firstBookRead = firstBookRead(
          book.profileId,
          Promise.resolve(book.summary),
          Promise.resolve(book.page),
        );
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
      book.useFirstRead(first, first.markDrawn);
    this.book = book;
    return book;
  }

  private readBookFirst(profileId: string): void {
    if (this.book?.profileId === profileId) return;
    // Read already (the app opened on it): not again.
    const read = this.firstBookRead;
    if (read?.profileId === profileId && Date.now() - read.at < FIRST_READ_FRESH_MS) return;
    const summary = this.api.book.summary({ profileId });
    const page = this.api.book.rows({ profileId, query: WHOLE_BOOK, offset: 0, limit: BOOK_PAGE });
    this.firstBookRead = firstBookRead(profileId, summary, page);
  }

  /**
   * A screen holding work a move would lose (a model's unsaved edits) asks before every move
   * away; returns what stops asking (the screen went).
   */
  guardLeaving(guard: LeaveGuard): () => void {
    this.leaveGuard = guard;
    return () => {
      if (this.leaveGuard === guard) this.leaveGuard = null;
    };
  }

  /** Every move to another screen or model: made now, or once the screen shown lets it go. */
  navigate(move: () => void): void {
    if (this.leaveGuard?.(move)) return;
    move();
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
    // The sidebar's list (up to thousands of lines) is read and drawn once the book has drawn its
    // first rows: they are the first screen, and the two would share the page's main thread.
    // Read at the latest SIDEBAR_AFTER_ROWS_MS after the rows came (the book may not show).
    const read = this.firstBookRead;
    await this.strategies.show(
      profileId,
      read?.profileId === profileId ? sidebarWaitsFor(read) : undefined,
    );
  }

  /**
   * Shows the profile's batches in the main area: the batch `batches.current` holds (its review
   * or its progress), or the list of the profile's batches.
   */
  openBatches(): void {
    this.screen = 'batches';
  }

  /** The tab the next strategy pane opens on (the Attention screen's "Start a draft"). */
  private openingTab: StrategyTabName | null = null;

  openStrategy(strategyId: string, tab?: StrategyTabName): void {
    this.openingTab = tab ?? null;
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

  /** What an open strategy tells the rest of the frame (the status bar, the sidebar). */
  readonly detailHooks: StrategyDetailHooks = {
    synced: (at) => this.connectivity.noteSynced(at),
    linesChanged: () => void this.strategies.load(),
    figuresChanged: () => void this.connectivity.refresh(),
  };

  /**
   * Opens a strategy's pane (its store made by the pane, whose chunk carries its code, with
   * `detailHooks`): its view is read, and the events about it update it in place.
   */
  openDetail(detail: StrategyDetail): StrategyDetail {
    this.detail = detail;
    this.tab = this.openingTab ?? 'Overview';
    this.openingTab = null;
    this.versionId = null;
    void detail.load();
    return detail;
  }

  closeDetail(detail: StrategyDetail): void {
    if (this.detail === detail) this.detail = null;
  }

  /** Shows a version's detail in the open strategy's Versions tab. */
  openVersion(versionId: string): void {
    this.versionId = versionId;
    this.tab = 'Versions';
  }

  /**
   * Every desk event, to the stores that own what it carries: each updates in place, and none
   * reads again what the event carries. A new event type fails to compile until it has its case.
   */
  route(event: DeskEvent): void {
    switch (event.type) {
      case 'book-rows-changed':
        this.bookFor(event.profileId)?.applyRows(event);
        this.models?.applyBookRows(event.profileId, event.rows);
        return;
      case 'book-job-changed':
        this.bookFor(event.profileId)?.applyJob(event.job);
        // Strategies added many at once join the sidebar, read again at most every 2 s.
        if (event.job.kind === 'add' && event.profileId === this.strategies.profileId)
          this.reloadSidebar(event.job.state !== 'running');
        return;
      case 'version-status-changed':
        // The status bar's figures, the strategy's sidebar line, the open strategy: no reads.
        this.connectivity.applyFigures(event.appStatus);
        this.strategies.applyLine(event.profileId, event.strategy);
        this.detail?.applyStatusChange(event);
        // The book's rows it moved come in `book-rows-changed`.
        this.batches?.apply(event);
        return;
      case 'batch-progress':
        this.batches?.apply(event);
        return;
      case 'connectivity-changed':
        this.connectivity.applyChange(event);
        this.detail?.applyConnectivity(event);
        return;
      case 'journal-changed':
        this.journal.apply(event.profileId, event.inFlight);
        this.strategies.applyJournal(event.profileId, event.inFlight);
        // The status bar's figures it moved (of every profile): no read. The book's rows it
        // moved come in `book-rows-changed`.
        this.connectivity.applyFigures(event.appStatus);
        return;
      case 'version-tracking-changed':
        this.detail?.applyTracking(event);
        this.connectivity.refreshSoon();
        return;
      case 'activity-appended':
        this.activityHeard.emit(event);
        return;
      case 'export-progress':
        this.exportProgress.emit(event);
        return;
      case 'model-changed':
        // The Models screen and the Overviews, and the model column of the books holding them.
        this.models?.apply(event);
        this.book?.applyModels(event.strategies);
        return;
      case 'team-changed':
        // The Team screen listens for itself (team/team.svelte.ts); a decision on this desk's
        // own submission is told by a notification, whatever screen is shown.
        if (event.topic === 'submission') this.tellDecision(event);
        return;
      case 'menu-command':
        // File › Export CSV… opens the open strategy's Reports tab.
        if (event.command === 'export-csv' && this.detail) this.tab = 'Reports';
        return;
      default:
        unrouted(event);
    }
  }

  /** The decisions' notices load with the first submission a team announces (team/decisions.ts). */
  private tellDecision(event: DeskEventOf<'team-changed'>): void {
    this.decisions ??= import('../../team/decisions').then((m) => new m.DecisionNotices(this.api));
    // A read that fails (the team store unreachable) tells nothing; the Team screen says why.
    void this.decisions.then((notices) => notices.apply(event)).catch(() => undefined);
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

/** The book's first read, and whether the book has drawn it. */
type FirstBookRead = {
  profileId: string;
  summary: Promise<BookSummary>;
  page: Promise<BookPage>;
  at: number;
  /** Resolves once the book has drawn these rows on screen (or found it could not). */
  drawn: Promise<void>;
  markDrawn: () => void;
};

function firstBookRead(
  profileId: string,
  summary: Promise<BookSummary>,
  page: Promise<BookPage>,
): FirstBookRead {
  // Unread (a strategy opens instead), they fail quietly.
  summary.catch(() => undefined);
  page.catch(() => undefined);
  let markDrawn!: () => void;
  const drawn = new Promise<void>((resolve) => (markDrawn = resolve));
  return { profileId, summary, page, at: Date.now(), drawn, markDrawn };
}

/**
 * The book's first rows drawn and the page free of anything more urgent; or, when the book does
 * not draw them, a while after they came.
 */
function sidebarWaitsFor(read: FirstBookRead): Promise<unknown> {
  const atLatest = read.page.then(
    () => new Promise((resolve) => setTimeout(resolve, SIDEBAR_AFTER_ROWS_MS)),
    () => undefined,
  );
  return Promise.race([read.drawn.then(() => whenIdle(SIDEBAR_IDLE_WAIT_MS)), atLatest]);
}

/** Compiles only when every event type has its case above (the bridges let no other through). */
function unrouted(event: never): void {
  void event;
}
