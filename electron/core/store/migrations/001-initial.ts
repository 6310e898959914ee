import { APPLICATION_ID, type Migration } from './types';

/**
 * The first schema. Decimals are TEXT exactly as the service sent them (never REAL).
 * Everything hangs off a profile so deleting the profile removes all of its data.
 * No column ever holds a client secret: that lives in the keychain.
 */
const migration: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      PRAGMA application_id = ${APPLICATION_ID};

      CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        client_id TEXT NOT NULL,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
        granted_scopes TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE strategies (
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        fee_percent TEXT NOT NULL,
        is_liquidate_only INTEGER NOT NULL CHECK (is_liquidate_only IN (0, 1)),
        liquidate_only_reason TEXT,
        inserted_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        added_at TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, id)
      );

      CREATE TABLE holdings (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        id TEXT NOT NULL,
        symbol TEXT NOT NULL,
        quantity TEXT NOT NULL,
        inserted_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      );

      CREATE TABLE versions (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        id TEXT NOT NULL,
        cash_weight TEXT NOT NULL,
        old_cash_weight TEXT NOT NULL,
        scheduled_for TEXT,
        status TEXT,
        executed_at TEXT,
        inserted_at TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('created', 'imported')),
        location TEXT,
        PRIMARY KEY (profile_id, id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      );
      CREATE INDEX versions_by_strategy ON versions (profile_id, strategy_id, inserted_at);
      CREATE INDEX versions_by_executed_at ON versions (profile_id, executed_at);

      -- Rows of one version are replaced together; rowid keeps the service's order.
      CREATE TABLE orders (
        profile_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        id TEXT NOT NULL,
        date TEXT NOT NULL,
        side TEXT NOT NULL,
        symbol TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        order_quantity TEXT NOT NULL,
        order_value TEXT NOT NULL,
        filled_quantity TEXT,
        filled_value TEXT,
        filled_average_price TEXT,
        inserted_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, version_id, id),
        FOREIGN KEY (profile_id, version_id)
          REFERENCES versions (profile_id, id) ON DELETE CASCADE
      );

      CREATE TABLE version_positions (
        profile_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        id TEXT NOT NULL,
        symbol TEXT NOT NULL,
        old_weight TEXT NOT NULL,
        weight TEXT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (profile_id, version_id, id),
        FOREIGN KEY (profile_id, version_id)
          REFERENCES versions (profile_id, id) ON DELETE CASCADE
      );

      CREATE TABLE drafts (
        id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      );
      CREATE INDEX drafts_by_strategy ON drafts (profile_id, strategy_id);

      -- Weights stay as typed (a draft may hold an invalid weight while it is being edited).
      CREATE TABLE draft_rows (
        draft_id TEXT NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        symbol TEXT NOT NULL,
        weight TEXT NOT NULL,
        locked INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
        PRIMARY KEY (draft_id, position)
      ) WITHOUT ROWID;

      CREATE TABLE execution_journal (
        id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        strategy_id TEXT NOT NULL,
        draft_id TEXT REFERENCES drafts (id) ON DELETE SET NULL,
        idempotency_key TEXT NOT NULL,
        request_body TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('pending', 'sent', 'accepted', 'unknown', 'rejected', 'dismissed')),
        version_id TEXT,
        location TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (profile_id, idempotency_key)
      );
      CREATE INDEX journal_by_state ON execution_journal (state);
      CREATE INDEX journal_by_draft ON execution_journal (draft_id);

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `);
  },
};

export default migration;
