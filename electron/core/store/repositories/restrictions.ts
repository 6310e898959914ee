import type { Restriction, RestrictionKind } from '../../../../shared/restrictions/rules';
import type { RepositoryContext } from './context';

/**
 * Restrictions (migration 014, docs/restrictions.md): the rules of a profile, the list in force
 * each execution was armed with, and the restricted orders found when a rebalance ended.
 */
export type RestrictionsRepository = ReturnType<typeof restrictionsRepository>;

export interface StoredRestriction extends Restriction {
  profileId: string;
  createdAt: string;
  endedAt: string | null;
}

/** The list in force when an execution was armed. */
export interface ExecutionRestrictions {
  journalId: string;
  profileId: string;
  strategyId: string;
  listHash: string;
  rules: Restriction[];
  overrideSymbols: string[] | null;
  overrideNote: string | null;
  armedAt: string;
}

export interface StoredFinding {
  profileId: string;
  strategyId: string;
  versionId: string;
  orderId: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  orderStatus: string;
  quantity: string;
  restrictionId: string;
  restrictionKind: RestrictionKind;
  overridden: boolean;
  message: string;
  foundAt: string;
}

interface RestrictionRow {
  id: string;
  profile_id: string;
  kind: RestrictionKind;
  symbol: string;
  scope_type: 'profile' | 'strategy' | 'tag';
  scope_value: string | null;
  reason: string;
  set_by: string;
  valid_from: string;
  valid_until: string | null;
  created_at: string;
  ended_at: string | null;
}

const fromRow = (r: RestrictionRow): StoredRestriction => ({
  id: r.id,
  profileId: r.profile_id,
  kind: r.kind,
  symbol: r.symbol,
  scope:
    r.scope_type === 'profile'
      ? { type: 'profile' }
      : r.scope_type === 'strategy'
        ? { type: 'strategy', strategyId: r.scope_value! }
        : { type: 'tag', tag: r.scope_value! },
  reason: r.reason,
  setBy: r.set_by,
  from: r.valid_from,
  until: r.valid_until,
  createdAt: r.created_at,
  endedAt: r.ended_at,
});

export function restrictionsRepository({ db, now }: RepositoryContext) {
  // Prepared on first use: a store opened at an older schema (a migration test) has no table yet.
  let prepared: ReturnType<typeof prepare> | null = null;
  const statements = () => (prepared ??= prepare());
  const prepare = () => ({
    insert: db.prepare(
      `INSERT INTO restrictions (id, profile_id, kind, symbol, scope_type, scope_value, reason,
         set_by, valid_from, valid_until, created_at)
       VALUES (@id, @profileId, @kind, @symbol, @scopeType, @scopeValue, @reason, @setBy, @from,
         @until, @createdAt)`,
    ),
    list: db.prepare<[string], RestrictionRow>(
      `SELECT * FROM restrictions WHERE profile_id = ? ORDER BY symbol, valid_from, id`,
    ),
    get: db.prepare<[string, string], RestrictionRow>(
      `SELECT * FROM restrictions WHERE profile_id = ? AND id = ?`,
    ),
    // Only what may still be in force at `at` or later: the list a check starts from.
    current: db.prepare<[string, string], RestrictionRow>(
      `SELECT * FROM restrictions WHERE profile_id = ? AND (valid_until IS NULL OR valid_until > ?)
       ORDER BY symbol, valid_from, id`,
    ),
    // A rule not started yet closes on its start: an empty window, never in force.
    end: db.prepare(
      `UPDATE restrictions SET valid_until = max(@at, valid_from), ended_at = @at
       WHERE profile_id = @profileId AND id = @id AND (valid_until IS NULL OR valid_until > @at)`,
    ),
    tags: db
      .prepare<[string, string], string>(
        `SELECT tag FROM strategy_tags WHERE profile_id = ? AND strategy_id = ? ORDER BY tag`,
      )
      .pluck(),
    insertList: db.prepare(
      `INSERT INTO execution_restrictions (journal_id, profile_id, strategy_id, list_hash, rules,
         override_symbols, override_note, armed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    listOfVersion: db.prepare<
      [string, string],
      {
        journal_id: string;
        profile_id: string;
        strategy_id: string;
        list_hash: string;
        rules: string;
        override_symbols: string | null;
        override_note: string | null;
        armed_at: string;
      }
    >(
      `SELECT r.* FROM execution_restrictions r
       JOIN execution_journal j ON j.id = r.journal_id
       WHERE j.profile_id = ? AND j.version_id = ? AND j.state = 'accepted'`,
    ),
    insertFinding: db.prepare(
      `INSERT OR IGNORE INTO restriction_findings (profile_id, strategy_id, version_id, order_id,
         symbol, side, order_status, quantity, restriction_id, restriction_kind, overridden,
         message, found_at)
       VALUES (@profileId, @strategyId, @versionId, @orderId, @symbol, @side, @orderStatus,
         @quantity, @restrictionId, @restrictionKind, @overridden, @message, @foundAt)`,
    ),
    findingsOfProfile: db.prepare<[string], Record<string, string | number>>(
      `SELECT * FROM restriction_findings WHERE profile_id = ?
       ORDER BY strategy_id, found_at, symbol, order_id, restriction_id`,
    ),
    findings: db.prepare<[string, string], Record<string, string | number>>(
      `SELECT * FROM restriction_findings WHERE profile_id = ? AND version_id = ?
       ORDER BY symbol, order_id, restriction_id`,
    ),
  });

  return {
    /** Adds rules as they are (checked by the domain module), all or none. */
    add(profileId: string, rules: readonly Restriction[]): StoredRestriction[] {
      const createdAt = now();
      const s = statements();
      db.transaction(() => {
        for (const r of rules)
          s.insert.run({
            id: r.id,
            profileId,
            kind: r.kind,
            symbol: r.symbol,
            scopeType: r.scope.type,
            scopeValue:
              r.scope.type === 'strategy'
                ? r.scope.strategyId
                : r.scope.type === 'tag'
                  ? r.scope.tag
                  : null,
            reason: r.reason,
            setBy: r.setBy,
            from: r.from,
            until: r.until,
            createdAt,
          });
      })();
      return rules.map((r) => fromRow(s.get.get(profileId, r.id)!));
    },
    list(profileId: string): StoredRestriction[] {
      return statements().list.all(profileId).map(fromRow);
    },
    get(profileId: string, id: string): StoredRestriction | null {
      const row = statements().get.get(profileId, id);
      return row ? fromRow(row) : null;
    },
    /** Rules whose window has not closed by `at` (in force then, or later). */
    notOverBy(profileId: string, at: string): StoredRestriction[] {
      return statements().current.all(profileId, at).map(fromRow);
    },
    /** Ends a rule at `at` (or at its start, when later). False when it was over already. */
    end(profileId: string, id: string, at: string): boolean {
      return statements().end.run({ profileId, id, at }).changes === 1;
    },
    tagsOf(profileId: string, strategyId: string): string[] {
      return statements().tags.all(profileId, strategyId);
    },
    /** The list in force an execution is armed with (in the transaction that journals it). */
    recordExecutionList(list: ExecutionRestrictions): void {
      statements().insertList.run(
        list.journalId,
        list.profileId,
        list.strategyId,
        list.listHash,
        JSON.stringify(list.rules),
        list.overrideSymbols === null ? null : JSON.stringify(list.overrideSymbols),
        list.overrideNote,
        list.armedAt,
      );
    },
    /** The list the execution that created the version was armed with; null: none recorded. */
    listOfVersion(profileId: string, versionId: string): ExecutionRestrictions | null {
      const row = statements().listOfVersion.get(profileId, versionId);
      if (!row) return null;
      return {
        journalId: row.journal_id,
        profileId: row.profile_id,
        strategyId: row.strategy_id,
        listHash: row.list_hash,
        rules: JSON.parse(row.rules) as Restriction[],
        overrideSymbols:
          row.override_symbols === null ? null : (JSON.parse(row.override_symbols) as string[]),
        overrideNote: row.override_note,
        armedAt: row.armed_at,
      };
    },
    /** Stores findings once (a second check of the same version adds nothing). */
    addFindings(findings: readonly StoredFinding[]): void {
      const s = statements();
      db.transaction(() => {
        for (const f of findings) s.insertFinding.run({ ...f, overridden: f.overridden ? 1 : 0 });
      })();
    },
    findings(profileId: string, versionId: string): StoredFinding[] {
      return statements().findings.all(profileId, versionId).map(findingOf);
    },
    /** Every finding of a profile (the attention queue's restricted orders): one indexed query. */
    findingsOfProfile(profileId: string): StoredFinding[] {
      return statements().findingsOfProfile.all(profileId).map(findingOf);
    },
  };
}

function findingOf(r: Record<string, string | number>): StoredFinding {
  return {
    profileId: r.profile_id as string,
    strategyId: r.strategy_id as string,
    versionId: r.version_id as string,
    orderId: r.order_id as string,
    symbol: r.symbol as string,
    side: r.side as 'BUY' | 'SELL',
    orderStatus: r.order_status as string,
    quantity: r.quantity as string,
    restrictionId: r.restriction_id as string,
    restrictionKind: r.restriction_kind as RestrictionKind,
    overridden: r.overridden === 1,
    message: r.message as string,
    foundAt: r.found_at as string,
  };
}
