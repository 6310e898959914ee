import type { BookFlag, BookSort } from '../../../../shared/book/flags';

/** A row of `book_rows` as the book works it out. */
export interface BookRowRecord {
  profile_id: string;
  strategy_id: string;
  name: string;
  synced_at: string;
  holdings_count: number;
  held_symbols: string[];
  target_state: 'known' | 'unknown' | 'changed-elsewhere';
  target_version_id: string | null;
  target_executed_at: string | null;
  changed_symbols: string[];
  last_version_id: string | null;
  last_version_status: string | null;
  last_version_at: string | null;
  running: boolean;
  liquidate_only_reason: string | null;
  flag_failed: boolean;
  flag_liquidate_only: boolean;
  flag_unexecuted: boolean;
  flag_attention: boolean;
  flag_changed_elsewhere: boolean;
  computed_at: string;
}

/** A row as read for the book: the stored row, its failed read, its tags, its flags now. */
export interface BookRowRead extends BookRowRecord {
  failure: { at: string; kind: string; message: string; status: number | null } | null;
  tags: string[];
  flags: BookFlag[];
}

export interface BookFilter {
  profileId: string;
  search: string;
  flags: readonly BookFlag[];
  tag: string | null;
  /** Strategies synced before this instant are stale. */
  staleBefore: string;
  /** Only these strategies (a selection of rows). */
  strategyIds?: readonly string[];
}

export interface BookOrder {
  sort: BookSort;
  descending: boolean;
}

export interface RefreshFailure {
  kind: string;
  message: string;
  status: number | null;
  at: string;
}

export interface BookCountsRecord {
  strategies: number;
  flagged: number;
  flags: Record<BookFlag, number>;
}

/**
 * The SQL of the book's reads: each flag as a condition, each sort as its keys, a filter as a
 * WHERE clause with its parameters, and a stored row as read.
 */

/** Each flag as a SQL condition on `b` (book_rows) and `f` (book_refresh_failures). */
export const FLAG_SQL: Record<BookFlag, string> = {
  failed: 'b.flag_failed = 1',
  'liquidate-only': 'b.flag_liquidate_only = 1',
  unexecuted: 'b.flag_unexecuted = 1',
  attention: 'b.flag_attention = 1',
  'changed-elsewhere': 'b.flag_changed_elsewhere = 1',
  'refresh-failed': 'f.strategy_id IS NOT NULL',
  stale: 'b.synced_at < @staleBefore',
};
export const FLAG_ORDER = Object.keys(FLAG_SQL) as BookFlag[];
export const ANY_FLAG = FLAG_ORDER.map((f) => `(${FLAG_SQL[f]})`).join(' OR ');
const FLAG_COUNT = FLAG_ORDER.map((f) => `(${FLAG_SQL[f]})`).join(' + ');

const FIRST_TAG = `(SELECT min(t.tag) FROM strategy_tags t
  WHERE t.profile_id = b.profile_id AND t.strategy_id = b.strategy_id)`;

const MODEL_NAME = `(SELECT m.name FROM model_assignments a JOIN models m ON m.id = a.model_id
  WHERE a.profile_id = b.profile_id AND a.strategy_id = b.strategy_id)`;

/** Each sort as its SQL key; NULLs (no tag, no version) always last. */
const SORT_SQL: Record<BookSort, string[]> = {
  name: ['b.name COLLATE NOCASE'],
  tags: [`${FIRST_TAG} IS NULL`, `${FIRST_TAG} COLLATE NOCASE`],
  // The followed model's name (none last), then the name orders them.
  model: [`${MODEL_NAME} IS NULL`, `${MODEL_NAME} COLLATE NOCASE`],
  target: [
    `CASE b.target_state WHEN 'known' THEN 0 WHEN 'changed-elsewhere' THEN 1 ELSE 2 END`,
    'b.target_executed_at',
  ],
  holdings: ['b.holdings_count'],
  'last-version-status': ['b.last_version_status IS NULL', 'b.last_version_status'],
  'last-version-date': ['b.last_version_at IS NULL', 'b.last_version_at'],
  flags: [`(${FLAG_COUNT})`],
  synced: ['b.synced_at'],
};

export const ROW_COLUMNS = `b.*, f.failed_at AS failure_at, f.kind AS failure_kind,
  f.message AS failure_message, f.status AS failure_status,
  (SELECT json_group_array(tag) FROM (SELECT t.tag FROM strategy_tags t
     WHERE t.profile_id = b.profile_id AND t.strategy_id = b.strategy_id
     ORDER BY t.tag COLLATE NOCASE, t.tag)) AS tags_json,
  ${FLAG_ORDER.map((f, i) => `(${FLAG_SQL[f]}) AS flag_${i}`).join(', ')}`;

export const FROM = `FROM book_rows b LEFT JOIN book_refresh_failures f
  ON f.profile_id = b.profile_id AND f.strategy_id = b.strategy_id`;

export type StoredBookRow = Omit<
  BookRowRecord,
  | 'held_symbols'
  | 'changed_symbols'
  | 'running'
  | 'flag_failed'
  | 'flag_liquidate_only'
  | 'flag_unexecuted'
  | 'flag_attention'
  | 'flag_changed_elsewhere'
> & {
  held_symbols: string;
  changed_symbols: string;
  running: number;
  flag_failed: number;
  flag_liquidate_only: number;
  flag_unexecuted: number;
  flag_attention: number;
  flag_changed_elsewhere: number;
  failure_at: string | null;
  failure_kind: string | null;
  failure_message: string | null;
  failure_status: number | null;
  tags_json: string;
} & Record<`flag_${number}`, number>;

export function fromStored(r: StoredBookRow): BookRowRead {
  return {
    profile_id: r.profile_id,
    strategy_id: r.strategy_id,
    name: r.name,
    synced_at: r.synced_at,
    holdings_count: r.holdings_count,
    held_symbols: JSON.parse(r.held_symbols) as string[],
    target_state: r.target_state,
    target_version_id: r.target_version_id,
    target_executed_at: r.target_executed_at,
    changed_symbols: JSON.parse(r.changed_symbols) as string[],
    last_version_id: r.last_version_id,
    last_version_status: r.last_version_status,
    last_version_at: r.last_version_at,
    running: r.running === 1,
    liquidate_only_reason: r.liquidate_only_reason,
    flag_failed: r.flag_failed === 1,
    flag_liquidate_only: r.flag_liquidate_only === 1,
    flag_unexecuted: r.flag_unexecuted === 1,
    flag_attention: r.flag_attention === 1,
    flag_changed_elsewhere: r.flag_changed_elsewhere === 1,
    computed_at: r.computed_at,
    failure:
      r.failure_at === null
        ? null
        : {
            at: r.failure_at,
            kind: r.failure_kind ?? '',
            message: r.failure_message ?? '',
            status: r.failure_status,
          },
    tags: JSON.parse(r.tags_json) as string[],
    flags: FLAG_ORDER.filter((_, i) => r[`flag_${i}`] === 1),
  };
}

/** `%` and `_` match themselves in a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE clause of a filter, with its parameters. */
export function where(filter: BookFilter): { sql: string; params: Record<string, unknown> } {
  const clauses = ['b.profile_id = @profileId'];
  const params: Record<string, unknown> = {
    profileId: filter.profileId,
    staleBefore: filter.staleBefore,
  };
  const search = filter.search.trim();
  if (search !== '') {
    params.like = `%${likeEscaped(search)}%`;
    params.idLike = `${likeEscaped(search.toLowerCase())}%`;
    params.symbolFrom = search.toUpperCase();
    params.symbolTo = `${search.toUpperCase()}\uffff`;
    clauses.push(`(b.name LIKE @like ESCAPE '\\' OR b.strategy_id LIKE @idLike ESCAPE '\\'
      OR b.strategy_id IN (SELECT h.strategy_id FROM holdings h
        WHERE h.profile_id = @profileId AND h.symbol >= @symbolFrom AND h.symbol < @symbolTo))`);
  }
  if (filter.flags.length > 0)
    clauses.push(`(${filter.flags.map((f) => `(${FLAG_SQL[f]})`).join(' OR ')})`);
  if (filter.tag !== null) {
    params.tag = filter.tag;
    clauses.push(`EXISTS (SELECT 1 FROM strategy_tags t WHERE t.profile_id = b.profile_id
      AND t.strategy_id = b.strategy_id AND t.tag = @tag)`);
  }
  if (filter.strategyIds !== undefined) {
    params.ids = JSON.stringify(filter.strategyIds);
    clauses.push('b.strategy_id IN (SELECT value FROM json_each(@ids))');
  }
  return { sql: clauses.join(' AND '), params };
}

export function orderBy(order: BookOrder): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  const keys = SORT_SQL[order.sort].map((key) => `${key} ${direction}`);
  // A total order: the name, then the id, whatever the sort.
  return [...keys, 'b.name COLLATE NOCASE ASC', 'b.strategy_id ASC'].join(', ');
}
