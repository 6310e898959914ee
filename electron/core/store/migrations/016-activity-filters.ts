import type { Migration } from './types';

/**
 * The Activity view's filters without reading the whole log (docs/activity.md): by kind and by
 * day through their own indexes (by strategy through 004's), and each filter's total from
 * per-day counts kept by a trigger, so a total costs the days, kinds and strategies it spans,
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
      -- strategy_id '' stands for none: a key column is never NULL.
      CREATE TABLE activity_counts (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        day TEXT NOT NULL,
        entries INTEGER NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, kind, day)
      ) WITHOUT ROWID;
      INSERT INTO activity_counts (profile_id, strategy_id, kind, day, entries)
        SELECT profile_id, coalesce(strategy_id, ''), kind, substr(at, 1, 10), count(*)
          FROM activity GROUP BY 1, 2, 3, 4;
      CREATE TRIGGER activity_counted AFTER INSERT ON activity
      BEGIN
        INSERT INTO activity_counts (profile_id, strategy_id, kind, day, entries)
          VALUES (NEW.profile_id, coalesce(NEW.strategy_id, ''), NEW.kind, substr(NEW.at, 1, 10), 1)
          ON CONFLICT DO UPDATE SET entries = entries + 1;
      END;
    `);
  },
};

export default migration;
