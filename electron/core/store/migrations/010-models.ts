import type { Migration } from './types';

/**
 * The model library (app-wide: no profile) and which strategies follow a model (per profile).
 * A revision is immutable: its row and its rows refuse UPDATE (triggers), so what a strategy or a
 * batch refers to can never change under it. Decimals are TEXT, as everywhere.
 *
 * A strategy follows at most one model (the primary key); it follows the model's latest revision
 * unless `revision_id` pins one. Removing the strategy from the app removes its assignment; a
 * model or a revision with followers cannot be deleted (no ON DELETE CASCADE from the models).
 */
const migration: Migration = {
  version: 10,
  name: 'models',
  up(db) {
    db.exec(`
      CREATE TABLE models (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE model_revisions (
        id TEXT PRIMARY KEY NOT NULL,
        model_id TEXT NOT NULL REFERENCES models (id),
        number INTEGER NOT NULL CHECK (number > 0),
        created_at TEXT NOT NULL,
        note TEXT NOT NULL,
        hash TEXT NOT NULL CHECK (length(hash) = 64),
        total TEXT NOT NULL,
        UNIQUE (model_id, number)
      );

      CREATE TABLE model_revision_rows (
        revision_id TEXT NOT NULL REFERENCES model_revisions (id),
        position INTEGER NOT NULL,
        symbol TEXT NOT NULL,
        weight TEXT NOT NULL,
        PRIMARY KEY (revision_id, position),
        UNIQUE (revision_id, symbol)
      ) WITHOUT ROWID;

      CREATE TRIGGER model_revisions_immutable BEFORE UPDATE ON model_revisions
      BEGIN SELECT RAISE(ABORT, 'a model revision is immutable'); END;
      CREATE TRIGGER model_revision_rows_immutable BEFORE UPDATE ON model_revision_rows
      BEGIN SELECT RAISE(ABORT, 'a model revision is immutable'); END;

      CREATE TABLE model_assignments (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        model_id TEXT NOT NULL REFERENCES models (id),
        revision_id TEXT REFERENCES model_revisions (id),
        assigned_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX model_assignments_by_model
        ON model_assignments (model_id, profile_id, strategy_id);
    `);
  },
};

export default migration;
