import type { Migration } from './types';

/**
 * Restrictions (docs/restrictions.md): symbols a profile's strategies must not buy, must not sell
 * or must not trade at all (hold), for one strategy, a tag or the whole profile, each with a
 * reason, who set it, and when it is in force (`valid_from` inclusive, `valid_until` exclusive,
 * NULL open-ended). A restriction is never deleted: ending it sets `valid_until` to the moment it
 * ended (its start, when it had not started: an empty window), so the list in force at any
 * earlier time can still be told.
 *
 * - `execution_restrictions`: the list in force for an execution when it was armed (its rules as
 *   JSON, their canonical hash, and the override the manager gave by name with a note), written
 *   in the transaction that journals it: its rebalance's orders are checked against this list.
 * - `restriction_findings`: each real order of an ended rebalance that a rule of that list
 *   forbids (a BUY of a do-not-buy or hold symbol, a SELL of a do-not-sell or hold symbol),
 *   stored once when the rebalance ends; the attention queue reads them by profile.
 */
const migration: Migration = {
  version: 14,
  name: 'restrictions',
  up(db) {
    db.exec(`
      CREATE TABLE restrictions (
        id TEXT PRIMARY KEY NOT NULL,
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('do-not-buy', 'do-not-sell', 'hold')),
        symbol TEXT NOT NULL CHECK (length(symbol) > 0 AND symbol = upper(trim(symbol))),
        scope_type TEXT NOT NULL CHECK (scope_type IN ('profile', 'strategy', 'tag')),
        scope_value TEXT,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        set_by TEXT NOT NULL CHECK (length(trim(set_by)) > 0),
        valid_from TEXT NOT NULL,
        valid_until TEXT CHECK (valid_until IS NULL OR valid_until >= valid_from),
        created_at TEXT NOT NULL,
        ended_at TEXT,
        CHECK ((scope_type = 'profile') = (scope_value IS NULL))
      );
      CREATE INDEX restrictions_by_profile ON restrictions (profile_id, symbol, id);

      CREATE TABLE execution_restrictions (
        journal_id TEXT PRIMARY KEY NOT NULL REFERENCES execution_journal (id) ON DELETE CASCADE,
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        list_hash TEXT NOT NULL CHECK (length(list_hash) = 64),
        rules TEXT NOT NULL,
        override_symbols TEXT,
        override_note TEXT,
        armed_at TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE restriction_findings (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        order_id TEXT NOT NULL,
        symbol TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
        order_status TEXT NOT NULL,
        quantity TEXT NOT NULL,
        restriction_id TEXT NOT NULL,
        restriction_kind TEXT NOT NULL CHECK (restriction_kind IN ('do-not-buy', 'do-not-sell', 'hold')),
        overridden INTEGER NOT NULL CHECK (overridden IN (0, 1)),
        message TEXT NOT NULL,
        found_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, version_id, order_id, restriction_id)
      ) WITHOUT ROWID;
      CREATE INDEX restriction_findings_by_strategy
        ON restriction_findings (profile_id, strategy_id, found_at);
    `);
  },
};

export default migration;
