import type { Order, VersionPosition } from '../../../../shared/domain/resources';

/**
 * A version's orders and positions brought in line with a service answer, writing only the
 * difference (the versions repository's upsert).
 */

/** A version's orders or positions in the store, one row per id, in the service's order (rowid). */
export interface ChildRows<T extends { id: string }> {
  /** Whether two rows are equal in their id and every stored field. */
  same(a: T, b: T): boolean;
  count(profileId: string, versionId: string): number;
  all(profileId: string, versionId: string): T[];
  insert(profileId: string, versionId: string, row: T): void;
  update(profileId: string, versionId: string, row: T): void;
  remove(profileId: string, versionId: string, id: string): void;
  removeAll(profileId: string, versionId: string): void;
}

function sameRows<T extends { id: string }>(
  same: (a: T, b: T) => boolean,
  a: readonly T[],
  b: readonly T[],
): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i]!, b[i]!)) return false;
  return true;
}

// Written out field by field rather than looped over ORDER_FIELDS: an unchanged poll of a
// 10,000-order version compares every field of every order, and a loop over the names reads
// each through a slow keyed lookup (most of that poll's cost). The store's tests change each
// field of ORDER_FIELDS and POSITION_FIELDS in turn, so a field left out here fails them.
export function sameOrder(a: Order, b: Order): boolean {
  return (
    a.id === b.id &&
    a.date === b.date &&
    a.side === b.side &&
    a.symbol === b.symbol &&
    a.status === b.status &&
    a.status_reason === b.status_reason &&
    a.order_quantity === b.order_quantity &&
    a.order_value === b.order_value &&
    a.filled_quantity === b.filled_quantity &&
    a.filled_value === b.filled_value &&
    a.filled_average_price === b.filled_average_price &&
    a.inserted_at === b.inserted_at &&
    a.updated_at === b.updated_at
  );
}

export function samePosition(a: VersionPosition, b: VersionPosition): boolean {
  return (
    a.id === b.id &&
    a.symbol === b.symbol &&
    a.old_weight === b.old_weight &&
    a.weight === b.weight &&
    a.action === b.action
  );
}

/**
 * Makes the stored rows equal to `rows`, writing only the difference. `last` is what this
 * repository wrote for the version before, if it still knows: when the answer equals it and the
 * row count agrees, nothing is read or written. Otherwise the stored rows are read and compared
 * by id. Rows keep the service's order through their rowid, so when the answer reorders the
 * rows it kept (rather than dropping some and adding new ones at the end), all are rewritten.
 */
export function syncRows<T extends { id: string }>(
  table: ChildRows<T>,
  profileId: string,
  versionId: string,
  rows: readonly T[],
  last: readonly T[] | undefined,
): void {
  if (last && sameRows(table.same, rows, last) && table.count(profileId, versionId) === last.length)
    return;
  const stored = table.all(profileId, versionId);
  if (stored.length === 0) {
    for (const row of rows) table.insert(profileId, versionId, row);
    return;
  }
  const incoming = new Map<string, T>();
  for (const row of rows) incoming.set(row.id, row);
  const kept = stored.filter((row) => incoming.has(row.id));
  const inOrder = incoming.size === rows.length && kept.every((row, i) => rows[i]!.id === row.id);
  if (!inOrder) {
    table.removeAll(profileId, versionId);
    for (const row of rows) table.insert(profileId, versionId, row);
    return;
  }
  for (const row of stored) if (!incoming.has(row.id)) table.remove(profileId, versionId, row.id);
  for (let i = 0; i < kept.length; i++)
    if (!table.same(kept[i]!, rows[i]!)) table.update(profileId, versionId, rows[i]!);
  for (let i = kept.length; i < rows.length; i++) table.insert(profileId, versionId, rows[i]!);
}
