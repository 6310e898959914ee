import type { Migration } from './types';

/**
 * The review that superseded a batch never executed (docs/batches.md): a newer review of the same
 * profile that would send one of its strategies. Only the newest is the one to sign, so the older
 * one expires naming it, reads "superseded", and executing it is refused. Only an expired batch
 * holds one; batches expired before this version (at a restart) have none.
 */
const migration: Migration = {
  version: 17,
  name: 'batch-superseded',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN superseded_by TEXT
        REFERENCES batches (id) ON DELETE SET NULL
        CHECK (superseded_by IS NULL OR (state = 'expired' AND superseded_by <> id));
    `);
  },
};

export default migration;
