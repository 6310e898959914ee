import type { Migration } from './types';

/**
 * The attention queue (docs/attention.md): what it compares with and what the manager set aside.
 *
 * - `attention_snapshots` + `attention_snapshot_holdings`: a strategy's positions as read when its
 *   last rebalance ended (tracking's end, the one strategy read), one snapshot per strategy, the
 *   newest replacing the one before. Only held symbols (quantity not zero) are kept. Quantities
 *   are TEXT as the service sent them.
 * - `attention_schedules`: when a strategy is due by calendar, set per strategy or per tag:
 *   monthly or quarterly on a day (1 to 28, so every month has it), or once on a date; not due
 *   within `cooldown_days` after any execution.
 * - `attention_found`: the signals worked out from the snapshots, the holdings and the last
 *   rebalance (what changed, target against held, left unfilled), per strategy, worked out again
 *   only for the strategies marked in `attention_dirty`: by a trigger whenever the book marks a
 *   strategy (every write its row derives from: holdings, versions with their orders and
 *   positions, the journal) and by each new snapshot. A queue of thousands is read, not worked
 *   out again.
 * - `attention_dismissals`: a signal acknowledged, or snoozed until a time, with the manager's
 *   reason; it holds only while the signal's evidence is the one dismissed (a change brings the
 *   signal back).
 */
const migration: Migration = {
  version: 13,
  name: 'attention',
  up(db) {
    db.exec(`
      CREATE TABLE attention_snapshots (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        ended_status TEXT NOT NULL,
        -- When the strategy was read (its synced_at) and when the snapshot was stored.
        read_at TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;

      CREATE TABLE attention_snapshot_holdings (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        symbol TEXT NOT NULL,
        quantity TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, symbol),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES attention_snapshots (profile_id, strategy_id) ON DELETE CASCADE
      ) WITHOUT ROWID;

      CREATE TABLE attention_schedules (
        id TEXT PRIMARY KEY NOT NULL,
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        strategy_id TEXT,
        tag TEXT,
        cadence TEXT NOT NULL CHECK (cadence IN ('monthly', 'quarterly', 'date')),
        day INTEGER CHECK (day IS NULL OR day BETWEEN 1 AND 28),
        on_date TEXT CHECK (on_date IS NULL OR on_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        cooldown_days INTEGER NOT NULL CHECK (cooldown_days BETWEEN 0 AND 366),
        created_at TEXT NOT NULL,
        CHECK ((strategy_id IS NULL) <> (tag IS NULL)),
        CHECK ((cadence = 'date') = (on_date IS NOT NULL)),
        CHECK ((cadence = 'date') = (day IS NULL)),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      );
      CREATE INDEX attention_schedules_by_profile ON attention_schedules (profile_id);

      CREATE TABLE attention_found (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        symbol TEXT,
        before TEXT,
        now TEXT,
        version_id TEXT,
        PRIMARY KEY (profile_id, strategy_id, kind, subject),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;

      -- No foreign key, as book_dirty: a mark of a strategy being deleted is dropped when read.
      CREATE TABLE attention_dirty (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id)
      ) WITHOUT ROWID;
      -- Where there is none (not OR IGNORE: an upsert's own conflict handling overrides a
      -- trigger's, migration 009).
      CREATE TRIGGER attention_marked_with_book AFTER INSERT ON book_dirty BEGIN
        INSERT INTO attention_dirty SELECT NEW.profile_id, NEW.strategy_id
          WHERE NOT EXISTS (SELECT 1 FROM attention_dirty WHERE profile_id = NEW.profile_id
            AND strategy_id = NEW.strategy_id);
      END;
      INSERT INTO attention_dirty SELECT profile_id, id FROM strategies;

      CREATE TABLE attention_dismissals (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        signal_key TEXT NOT NULL,
        evidence TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('acknowledged', 'snoozed')),
        until TEXT,
        reason TEXT NOT NULL CHECK (length(reason) > 0),
        at TEXT NOT NULL,
        CHECK ((action = 'snoozed') = (until IS NOT NULL)),
        PRIMARY KEY (profile_id, strategy_id, signal_key),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
    `);
  },
};

export default migration;
