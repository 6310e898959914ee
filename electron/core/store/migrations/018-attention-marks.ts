import type { Migration } from './types';

/**
 * The attention queue's own marks (docs/attention.md). Until now a strategy was marked for the
 * queue when the book marked it (`attention_marked_with_book`); but the book marks a strategy
 * once until it works the row out, so a later write to it left no new mark, and the queue worked
 * out again every strategy the book still had marked, on every read: with the book not opened,
 * all of them, each time. Now every write the book marks for marks the queue too, by its own
 * triggers (the same writes and conditions as migration 009's, and a holding replaced), and the
 * queue reads only its own marks.
 */
const MARK = (profile: string, strategy: string) => `
        INSERT INTO attention_dirty SELECT ${profile}, ${strategy}
          WHERE NOT EXISTS (SELECT 1 FROM attention_dirty WHERE profile_id = ${profile}
            AND strategy_id = ${strategy});`;

const migration: Migration = {
  version: 18,
  name: 'attention-marks',
  up(db) {
    db.exec(`
      CREATE TRIGGER attention_strategy_inserted AFTER INSERT ON strategies BEGIN${MARK('NEW.profile_id', 'NEW.id')}
      END;
      CREATE TRIGGER attention_strategy_updated AFTER UPDATE ON strategies
        WHEN OLD.name IS NOT NEW.name OR OLD.is_liquidate_only IS NOT NEW.is_liquidate_only
          OR OLD.liquidate_only_reason IS NOT NEW.liquidate_only_reason
          OR OLD.updated_at IS NOT NEW.updated_at BEGIN${MARK('NEW.profile_id', 'NEW.id')}
      END;
      -- Other holdings than before replace the old ones (repositories/strategies.ts).
      CREATE TRIGGER attention_holding_deleted AFTER DELETE ON holdings BEGIN${MARK('OLD.profile_id', 'OLD.strategy_id')}
      END;
      CREATE TRIGGER attention_version_inserted AFTER INSERT ON versions BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER attention_version_updated AFTER UPDATE ON versions BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER attention_version_deleted AFTER DELETE ON versions BEGIN${MARK('OLD.profile_id', 'OLD.strategy_id')}
      END;
      CREATE TRIGGER attention_journal_inserted AFTER INSERT ON execution_journal BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER attention_journal_updated AFTER UPDATE OF state ON execution_journal BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      CREATE TRIGGER attention_journal_deleted AFTER DELETE ON execution_journal BEGIN${MARK('OLD.profile_id', 'OLD.strategy_id')}
      END;
      CREATE TRIGGER attention_baseline_inserted AFTER INSERT ON target_baselines BEGIN${MARK('NEW.profile_id', 'NEW.strategy_id')}
      END;
      DROP TRIGGER attention_marked_with_book;
      -- What the book had marked and the queue read through it until now.
      INSERT OR IGNORE INTO attention_dirty SELECT profile_id, strategy_id FROM book_dirty;
    `);
  },
};

export default migration;
