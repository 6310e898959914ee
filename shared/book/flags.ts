/**
 * The book's attention flags (docs/book.md), in the order the book shows them. Plain TypeScript
 * (no zod): the renderer reads the labels without bundling the schemas.
 */
export const BOOK_FLAGS = [
  'failed',
  'liquidate-only',
  'unexecuted',
  'attention',
  'changed-elsewhere',
  'refresh-failed',
  'stale',
] as const;
export type BookFlag = (typeof BOOK_FLAGS)[number];

/** Each flag in a word or two (a badge) and in a sentence (its meaning). */
export const BOOK_FLAG_TEXT: Record<BookFlag, { label: string; meaning: string }> = {
  failed: {
    label: 'Failed',
    meaning: 'The last executed version known here ended FAILED, or has failed or ignored orders.',
  },
  'liquidate-only': {
    label: 'Liquidate-only',
    meaning: 'The service accepts no raised weight for this strategy.',
  },
  unexecuted: {
    label: 'Unexecuted version',
    meaning: 'A version not executed yet is known here; it blocks executing a new one.',
  },
  attention: {
    label: 'Needs attention',
    meaning: 'An execution of this strategy has an unknown outcome: check it before anything else.',
  },
  'changed-elsewhere': {
    label: 'Changed elsewhere',
    meaning:
      'The holdings do not fit the known target, or the strategy changed after it: a version may have been executed elsewhere.',
  },
  'refresh-failed': {
    label: 'Refresh failed',
    meaning:
      'The last read of this strategy from the service failed; the book shows the one before.',
  },
  stale: {
    label: 'Not synced',
    meaning: 'Not read from the service for longer than the book’s setting.',
  },
};

/** The book's columns a manager can sort by. */
export const BOOK_SORTS = [
  'name',
  'tags',
  'model',
  'target',
  'holdings',
  'last-version-status',
  'last-version-date',
  'flags',
  'synced',
] as const;
export type BookSort = (typeof BOOK_SORTS)[number];

/** A tag: trimmed, 1 to 60 characters, no control characters. */
export const MAX_TAG_LENGTH = 60;
export const MAX_TAGS_PER_CHANGE = 20;

/** The tag as stored, or null when it is no tag (empty, too long, control characters). */
export function normalizeTag(value: string): string | null {
  const tag = value.trim().replace(/\s+/g, ' ');
  if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(tag)) return null;
  return tag;
}

/** The most of a paste the app reads, in characters (about 150,000 lines of ids). */
export const MAX_PASTE_CHARACTERS = 6_000_000;
