import { bookSettings, type BookSettings } from '../../../shared/book/views';
import type { Store } from '../store';

/** The book's settings, app-wide, kept as JSON in the settings table. */

const KEY = 'book.settings';

export const DEFAULT_BOOK_SETTINGS: BookSettings = {
  refreshConcurrency: 4,
  autoRefreshMinutes: null,
  staleAfterHours: 24,
};

/** The stored settings; a value the app cannot read falls back to its default, field by field. */
export function readBookSettings(store: Pick<Store, 'settings'>): BookSettings {
  const raw = store.settings.get(KEY);
  if (raw === null) return { ...DEFAULT_BOOK_SETTINGS };
  let stored: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    stored =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULT_BOOK_SETTINGS };
  for (const key of Object.keys(DEFAULT_BOOK_SETTINGS) as (keyof BookSettings)[]) {
    const field = bookSettings.shape[key].safeParse(stored[key]);
    if (field.success) (settings as Record<string, unknown>)[key] = field.data;
  }
  return settings;
}

export function saveBookSettings(
  store: Pick<Store, 'settings'>,
  patch: Partial<BookSettings>,
): BookSettings {
  const next = bookSettings.parse({ ...readBookSettings(store), ...patch });
  store.settings.set(KEY, JSON.stringify(next));
  return next;
}

/**
 * The settings as the book holds them: read once, kept as saved (the book is their one writer), so
 * each step of a flow reads a field, not the settings table.
 */
export class HeldBookSettings {
  current: BookSettings;

  constructor(private readonly store: Pick<Store, 'settings'>) {
    this.current = readBookSettings(store);
  }

  save(patch: Partial<BookSettings>): BookSettings {
    this.current = saveBookSettings(this.store, patch);
    return this.current;
  }
}
