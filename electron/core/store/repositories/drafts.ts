import { randomUUID } from 'node:crypto';
import type { DraftRow } from '../../../../shared/views';
import type { RepositoryContext } from './context';

/** One line of a draft as the manager typed it; weight may be invalid while being edited. */
export type { DraftRow };

export interface DraftSummary {
  id: string;
  profileId: string;
  strategyId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  rowCount: number;
}

export interface Draft extends DraftSummary {
  rows: DraftRow[];
}

interface DraftRecord {
  id: string;
  profile_id: string;
  strategy_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  row_count: number;
}

const fromRecord = (r: DraftRecord): DraftSummary => ({
  id: r.id,
  profileId: r.profile_id,
  strategyId: r.strategy_id,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  rowCount: r.row_count,
});

const SUMMARY = `SELECT d.*, (SELECT count(*) FROM draft_rows r WHERE r.draft_id = d.id) AS row_count
  FROM drafts d`;

export type DraftsRepository = ReturnType<typeof draftsRepository>;

export function draftsRepository({ db, now }: RepositoryContext) {
  const insert = db.prepare(
    `INSERT INTO drafts (id, profile_id, strategy_id, name, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const selectOne = db.prepare<[string], DraftRecord>(`${SUMMARY} WHERE d.id = ?`);
  const selectForStrategy = db.prepare<[string, string], DraftRecord>(
    `${SUMMARY} WHERE d.profile_id = ? AND d.strategy_id = ? ORDER BY d.updated_at DESC, d.rowid DESC`,
  );
  const selectRows = db.prepare<[string], { symbol: string; weight: string; locked: 0 | 1 }>(
    'SELECT symbol, weight, locked FROM draft_rows WHERE draft_id = ? ORDER BY position',
  );
  // One indexed read for a strategy's list (drafts_by_strategy, then each draft's rows by key).
  const selectRowsForStrategy = db.prepare<
    [string, string],
    { draft_id: string; symbol: string; weight: string; locked: 0 | 1 }
  >(
    `SELECT r.draft_id, r.symbol, r.weight, r.locked FROM drafts d
     JOIN draft_rows r ON r.draft_id = d.id
     WHERE d.profile_id = ? AND d.strategy_id = ? ORDER BY r.draft_id, r.position`,
  );
  const rename = db.prepare('UPDATE drafts SET name = ?, updated_at = ? WHERE id = ?');
  const touch = db.prepare('UPDATE drafts SET updated_at = ? WHERE id = ?');
  const deleteRows = db.prepare('DELETE FROM draft_rows WHERE draft_id = ?');
  const insertRow = db.prepare(
    'INSERT INTO draft_rows (draft_id, position, symbol, weight, locked) VALUES (?, ?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM drafts WHERE id = ?');

  // All rows or none: a crash mid-save leaves the previous rows, never half of the new ones.
  const saveRows = db.transaction((draftId: string, rows: readonly DraftRow[], at: string) => {
    if (touch.run(at, draftId).changes === 0) return false;
    deleteRows.run(draftId);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      insertRow.run(draftId, i, r.symbol, r.weight, r.locked ? 1 : 0);
    }
    return true;
  });

  const create = db.transaction(
    (
      id: string,
      profileId: string,
      strategyId: string,
      name: string,
      rows: readonly DraftRow[],
    ) => {
      const at = now();
      insert.run(id, profileId, strategyId, name, at, at);
      saveRows(id, rows, at);
    },
  );

  return {
    create(input: {
      profileId: string;
      strategyId: string;
      name: string;
      rows?: readonly DraftRow[];
      id?: string;
    }): Draft {
      const id = input.id ?? randomUUID();
      create(id, input.profileId, input.strategyId, input.name, input.rows ?? []);
      return this.get(id)!;
    },
    get(draftId: string): Draft | null {
      const record = selectOne.get(draftId);
      if (!record) return null;
      const rows = selectRows.all(draftId).map((r) => ({ ...r, locked: r.locked === 1 }));
      return { ...fromRecord(record), rows };
    },
    /** The strategy's drafts with their row counts, most recently edited first. */
    listForStrategy(profileId: string, strategyId: string): DraftSummary[] {
      return selectForStrategy.all(profileId, strategyId).map(fromRecord);
    },
    /** Every row of the strategy's drafts, by draft id, in each draft's order. */
    rowsForStrategy(profileId: string, strategyId: string): Map<string, DraftRow[]> {
      const byDraft = new Map<string, DraftRow[]>();
      for (const r of selectRowsForStrategy.all(profileId, strategyId)) {
        const rows = byDraft.get(r.draft_id) ?? [];
        rows.push({ symbol: r.symbol, weight: r.weight, locked: r.locked === 1 });
        byDraft.set(r.draft_id, rows);
      }
      return byDraft;
    },
    rename(draftId: string, name: string): boolean {
      return rename.run(name, now(), draftId).changes > 0;
    },
    /** Replaces every row of the draft atomically; false when the draft does not exist. */
    saveRows(draftId: string, rows: readonly DraftRow[]): boolean {
      return saveRows(draftId, rows, now());
    },
    delete(draftId: string): boolean {
      return remove.run(draftId).changes > 0;
    },
  };
}
