import type { Migration } from './types';

/**
 * The Activity view's filters without reading the whole log (docs/activity.md): by kind and by
 * day through their own indexes (by strategy through 004's), and each filter's total from
 * per-day counts and totals kept by a trigger, so a total costs the days, kinds and strategies it spans,
 * not the entries (a count through an index still reads every matching entry: 250,000 of a
 * million-entry log for one common kind). The counts are written by the same INSERT as the
 * entry, inside the action's transaction; an edit of the file that bypasses the triggers is
 * what the chain check finds.
 */
const migration: Migration = {
  version: 16,
  name: 'activity-filters',
  up(db) {
    db.exec(`
      CREATE INDEX activity_kind ON activity (profile_id, kind, seq);
      CREATE INDEX activity_day ON activity (profile_id, at);
      -- strategy_id '' stands for none: a key column is never NULL. A range of days sums that
      -- range's counts; a filter without days sums the totals (as many rows as kinds and
      -- strategies, however long the log).
      CREATE TABLE activity_counts (
        profile_id TEXT NOT NULL,
        day TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        entries INTEGER NOT NULL,
        PRIMARY KEY (profile_id, day, strategy_id, kind)
      ) WITHOUT ROWID;
      CREATE TABLE activity_totals (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        entries INTEGER NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, kind)
      ) WITHOUT ROWID;
      INSERT INTO activity_counts (profile_id, day, strategy_id, kind, entries)
        SELECT profile_id, substr(at, 1, 10), coalesce(strategy_id, ''), kind, count(*)
          FROM activity GROUP BY 1, 2, 3, 4;
      INSERT INTO activity_totals (profile_id, strategy_id, kind, entries)
        SELECT profile_id, strategy_id, kind, sum(entries) FROM activity_counts GROUP BY 1, 2, 3;
      CREATE TRIGGER activity_counted AFTER INSERT ON activity
      BEGIN
        INSERT INTO activity_counts (profile_id, day, strategy_id, kind, entries)
          VALUES (NEW.profile_id, substr(NEW.at, 1, 10), coalesce(NEW.strategy_id, ''), NEW.kind, 1)
          ON CONFLICT DO UPDATE SET entries = entries + 1;
        INSERT INTO activity_totals (profile_id, strategy_id, kind, entries)
          VALUES (NEW.profile_id, coalesce(NEW.strategy_id, ''), NEW.kind, 1)
          ON CONFLICT DO UPDATE SET entries = entries + 1;
      END;
    `);
  },
};

export default migration;
