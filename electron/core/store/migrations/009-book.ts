import type { Migration } from './types';

/**
 * The book: every strategy of a profile at a glance (docs/book.md).
 *
 * - `strategy_tags`: the manager's local labels, any number per strategy.
 * - `book_rows`: one row per strategy with what the book shows and flags, derived from the cache
 *   by the app's own rules (the target check of the Overview and the confirmation), so a book
 *   of thousands is read, counted, sorted and filtered by SQL without working out any strategy
 *   again. A row is recomputed when its strategy is marked in `book_dirty`.
 * - `book_dirty`: marked by triggers in the same transaction as every write a row derives from
 *   (the strategy's fields the row shows and its holdings, its versions with their orders and
 *   positions, the journal, the settled-target baselines), whoever writes it: no path can leave
 *   a row stale unseen. Orders and positions are only ever written together with their
 *   version's own row, whose trigger marks it; holdings only by the strategies repository's
 *   upsert, which marks the strategy when it rewrites the holdings of one already held (a
 *   trigger per holding line would double the cost of adding hundreds of strategies). A read
 *   that changes nothing but the time it was read moves the row's sync time in place.
 * - `book_refresh_failures`: the last read of a strategy that failed, with its reason; the next
 *   successful read clears it in the same transaction as the new data.
 * - `holdings_by_symbol`: exposure and the search by held symbol read holders from an index.
 */
const migration: Migration = {
  version: 9,
  name: 'book',
  up(db) {
    db.exec(`
      CREATE TABLE strategy_tags (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        tag TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, tag),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX strategy_tags_by_tag ON strategy_tags (profile_id, tag, strategy_id);

      CREATE TABLE book_rows (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        name TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        holdings_count INTEGER NOT NULL,
        -- Held symbols, sorted, as JSON: the row's links to each symbol's exposure.
        held_symbols TEXT NOT NULL,
        target_state TEXT NOT NULL
          CHECK (target_state IN ('known', 'unknown', 'changed-elsewhere')),
        target_version_id TEXT,
        target_executed_at TEXT,
        -- Symbols that do not fit the known target, as JSON (held not targeted, targeted not held).
        changed_symbols TEXT NOT NULL,
        last_version_id TEXT,
        last_version_status TEXT,
        last_version_at TEXT,
        running INTEGER NOT NULL CHECK (running IN (0, 1)),
        liquidate_only_reason TEXT,
        flag_failed INTEGER NOT NULL CHECK (flag_failed IN (0, 1)),
        flag_liquidate_only INTEGER NOT NULL CHECK (flag_liquidate_only IN (0, 1)),
        flag_unexecuted INTEGER NOT NULL CHECK (flag_unexecuted IN (0, 1)),
        flag_attention INTEGER NOT NULL CHECK (flag_attention IN (0, 1)),
        flag_changed_elsewhere INTEGER NOT NULL CHECK (flag_changed_elsewhere IN (0, 1)),
        computed_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX book_rows_by_name ON book_rows (profile_id, name COLLATE NOCASE, strategy_id);

      -- No foreign key: a trigger may mark a strategy being deleted; such marks are dropped
      -- when the rows are brought up to date. The triggers insert a mark only where there is
      -- none (not with OR IGNORE: an upsert's own conflict handling overrides a trigger's).
      CREATE TABLE book_dirty (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id)
      ) WITHOUT ROWID;

      CREATE TABLE book_refresh_failures (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        failed_at TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        status INTEGER,
        PRIMARY KEY (profile_id, strategy_id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;

      CREATE INDEX holdings_by_symbol ON holdings (profile_id, symbol, strategy_id);

      CREATE TRIGGER book_strategy_inserted AFTER INSERT ON strategies BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.id);
      END;
      -- A read that changes nothing the row shows only moves its sync time.
      CREATE TRIGGER book_strategy_updated AFTER UPDATE ON strategies
        WHEN OLD.name IS NOT NEW.name OR OLD.is_liquidate_only IS NOT NEW.is_liquidate_only
          OR OLD.liquidate_only_reason IS NOT NEW.liquidate_only_reason
          OR OLD.updated_at IS NOT NEW.updated_at BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.id);
      END;
      CREATE TRIGGER book_strategy_synced AFTER UPDATE OF synced_at ON strategies
        WHEN OLD.synced_at IS NOT NEW.synced_at BEGIN
        UPDATE book_rows SET synced_at = NEW.synced_at
          WHERE profile_id = NEW.profile_id AND strategy_id = NEW.id;
      END;
      CREATE TRIGGER book_version_inserted AFTER INSERT ON versions BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;
      CREATE TRIGGER book_version_updated AFTER UPDATE ON versions BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;
      CREATE TRIGGER book_version_deleted AFTER DELETE ON versions BEGIN
        INSERT INTO book_dirty SELECT OLD.profile_id, OLD.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = OLD.profile_id
            AND strategy_id = OLD.strategy_id);
      END;
      CREATE TRIGGER book_journal_inserted AFTER INSERT ON execution_journal BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;
      CREATE TRIGGER book_journal_updated AFTER UPDATE OF state ON execution_journal BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;
      CREATE TRIGGER book_journal_deleted AFTER DELETE ON execution_journal BEGIN
        INSERT INTO book_dirty SELECT OLD.profile_id, OLD.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = OLD.profile_id
            AND strategy_id = OLD.strategy_id);
      END;
      CREATE TRIGGER book_baseline_inserted AFTER INSERT ON target_baselines BEGIN
        INSERT INTO book_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;

      -- Every strategy already cached is worked out on the first read of the book.
      INSERT INTO book_dirty (profile_id, strategy_id) SELECT profile_id, id FROM strategies;
    `);
  },
};

export default migration;
