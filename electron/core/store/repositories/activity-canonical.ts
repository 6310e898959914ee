import { createHash } from 'node:crypto';

/**
 * The canonical form an entry is hashed in (docs/activity.md): JSON with object keys sorted by
 * code unit, no whitespace, strings and integers exactly as JSON.stringify writes them. Payloads
 * hold only strings, integers, booleans, null, arrays and objects (decimals are strings).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isSafeInteger(value))
        throw new Error(`An activity entry holds only whole numbers; got ${value}.`);
      return JSON.stringify(value);
    case 'object': {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
    }
    default:
      throw new Error(`An activity entry cannot hold a ${typeof value}.`);
  }
}

/** The fields of an entry that its hash covers. */
export interface HashedFields {
  seq: number;
  profileId: string;
  chainIndex: number;
  at: string;
  kind: string;
  strategyId: string | null;
  versionId: string | null;
  refersTo: number | null;
}

/**
 * The canonical text of a whole entry, given its payload's canonical text (built once and
 * stored as is). Keys in sorted order: at, chainIndex, kind, payload, profileId, refersTo, seq,
 * strategyId, versionId.
 */
export function entryCanonical(fields: HashedFields, payloadCanonical: string): string {
  const s = JSON.stringify;
  return (
    `{"at":${s(fields.at)},"chainIndex":${fields.chainIndex},"kind":${s(fields.kind)},` +
    `"payload":${payloadCanonical},"profileId":${s(fields.profileId)},` +
    `"refersTo":${fields.refersTo === null ? 'null' : fields.refersTo},"seq":${fields.seq},` +
    `"strategyId":${fields.strategyId === null ? 'null' : s(fields.strategyId)},` +
    `"versionId":${fields.versionId === null ? 'null' : s(fields.versionId)}}`
  );
}

/** sha256hex(previous_hash + "\n" + canonical). */
export function entryHash(previousHash: string, canonical: string): string {
  return createHash('sha256').update(`${previousHash}\n${canonical}`).digest('hex');
}
