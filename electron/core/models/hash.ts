import { createHash } from 'node:crypto';
import { canonicalText, type ModelRowInput } from '../../../shared/models/canonical';

/**
 * A revision's hash: SHA-256 (hex) of its canonical text (shared/models/canonical.ts): symbols
 * upper-case and sorted, weights as decimal.js writes them, rows at 0 left out. Two revisions
 * that target the same weights have the same hash, however their rows were typed or ordered.
 */
export function revisionHash(rows: readonly ModelRowInput[]): string {
  return createHash('sha256').update(canonicalText(rows), 'utf8').digest('hex');
}
