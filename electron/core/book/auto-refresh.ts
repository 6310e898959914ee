import type { BookSelection, BookSettings } from '../../../shared/book/views';

/** What the automatic refresh asks of the book and of the desk. */
export interface AutoRefreshDeps {
  settings(): BookSettings;
  profiles(): string[];
  isOnline(profileId: string): boolean;
  refreshing(profileId: string): boolean;
  /** The strategies of the profile last read before `before` (the book's rows, up to date). */
  dueBefore(profileId: string, before: string): string[];
  refresh(profileId: string, selection: BookSelection): void;
  now(): string;
  minuteMs?: number;
}

/**
 * The book's optional automatic refresh (off by default): every `minuteMs` it looks for each
 * profile online, with no refresh under way, whose strategies were last read longer ago than
 * the setting's interval, and refreshes those through the book's one refresh.
 */
export function startAutoRefresh(deps: AutoRefreshDeps): () => void {
  const minuteMs = deps.minuteMs ?? 60_000;
  const timer = setInterval(() => {
    const minutes = deps.settings().autoRefreshMinutes;
    if (minutes === null) return;
    const before = new Date(Date.parse(deps.now()) - minutes * minuteMs).toISOString();
    for (const profileId of deps.profiles()) {
      if (!deps.isOnline(profileId) || deps.refreshing(profileId)) continue;
      const due = deps.dueBefore(profileId, before);
      if (due.length > 0) deps.refresh(profileId, { kind: 'ids', strategyIds: due });
    }
  }, minuteMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
