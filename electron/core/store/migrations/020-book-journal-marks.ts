import type { Migration } from './types';

/**
 * The book marks a strategy's row for a journal write only when the row can change: the row
 * shows of the journal only whether an execution's outcome is unknown (`flag_attention`). Until
 * now every write of an execution's state marked it (journaled, sent, accepted), so each row of
 * a batch was worked out two or three times while it was sent, for nothing the row shows. The
 * attention queue keeps its own marks for every journal write (migration 018).
 */
const MARK = (profile: string, strategy: string) => `
        INSERT INTO book_dirty SELECT ${profile}, ${strategy}
          WHERE NOT EXISTS (SELECT 1 FROM book_dirty WHERE profile_id = ${profile}
            AND strategy_id = ${strategy});`;

const migration: Migration = {
  version: 20,
  name: 'book-journal-marks',
  up(db) {
    db.exec(`
      DROP TRIGGER book_journal_inserted;
      DROP TRIGGER book_journal_updated;
      DROP TRIGGER book_journal_deleted;
      CREATE TRIGGER book_journal_inserted AFTER INSERT ON execution_journal
        WHEN NEW.state = 'unknown' BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER book_journal_updated AFTER UPDATE OF state ON execution_journal
        WHEN (OLD.state = 'unknown') IS NOT (NEW.state = 'unknown') BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER book_journal_deleted AFTER DELETE ON execution_journal
        WHEN OLD.state = 'unknown' BEGIN${MARK('OLD.profile_id', 'OLD.strategy_id')}
      END;
    `);
  },
};

export default migration;
