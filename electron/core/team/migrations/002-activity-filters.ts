import type { TeamMigration } from './types';

/**
 * The team's log filtered without reading it whole (docs/team.md): by day, kind, member and
 * strategy through 001's indexes, and each filter's total summed from per-day counts kept by a
 * trigger on insert (a count through an index still reads every matching entry). Members read
 * the counts; only the trigger (as the owner) writes them.
 */
const migration: TeamMigration = {
  version: 2,
  name: 'activity-filters',
  async up(client) {
    await client.query(`
      -- strategy_id '' stands for none: a key column is never NULL.
      CREATE TABLE team.activity_counts (
        day text NOT NULL,
        kind text NOT NULL,
        member name NOT NULL,
        strategy_id text NOT NULL,
        entries bigint NOT NULL,
        PRIMARY KEY (day, kind, member, strategy_id)
      );
      -- A filter without days sums the totals: as many rows as kinds, members and strategies.
      CREATE TABLE team.activity_totals (
        kind text NOT NULL,
        member name NOT NULL,
        strategy_id text NOT NULL,
        entries bigint NOT NULL,
        PRIMARY KEY (kind, member, strategy_id)
      );
      INSERT INTO team.activity_counts (day, kind, member, strategy_id, entries)
        SELECT substr(at, 1, 10), kind, member, coalesce(strategy_id, ''), count(*)
          FROM team.activity GROUP BY 1, 2, 3, 4;
      INSERT INTO team.activity_totals (kind, member, strategy_id, entries)
        SELECT kind, member, strategy_id, sum(entries) FROM team.activity_counts GROUP BY 1, 2, 3;

      CREATE FUNCTION team.count_entry() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          INSERT INTO team.activity_counts AS c (day, kind, member, strategy_id, entries)
          VALUES (substr(NEW.at, 1, 10), NEW.kind, NEW.member, coalesce(NEW.strategy_id, ''), 1)
          ON CONFLICT (day, kind, member, strategy_id) DO UPDATE SET entries = c.entries + 1;
          INSERT INTO team.activity_totals AS t (kind, member, strategy_id, entries)
          VALUES (NEW.kind, NEW.member, coalesce(NEW.strategy_id, ''), 1)
          ON CONFLICT (kind, member, strategy_id) DO UPDATE SET entries = t.entries + 1;
          RETURN NULL;
        END
      $f$;
      REVOKE ALL ON FUNCTION team.count_entry() FROM PUBLIC;
      CREATE TRIGGER activity_counted AFTER INSERT ON team.activity
        FOR EACH ROW EXECUTE FUNCTION team.count_entry();

      REVOKE ALL ON team.activity_counts, team.activity_totals FROM PUBLIC;
      GRANT SELECT ON team.activity_counts, team.activity_totals TO desk_member;
    `);
  },
};

export default migration;
