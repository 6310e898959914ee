import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { ACTIVITY_KINDS } from '../../../shared/activity/kinds';
import { activityFilter } from '../../../shared/activity/views';
import { canonicalJson } from './canonical';
import { ACTIVITY_EXPORT_FORMAT } from './export';
import { ChainWalker } from './verify';

/**
 * Checks a JSON Lines export on its own (no app, no database): every entry's hash recomputed
 * from its fields, each entry linked to the one before it, and, when the export was not
 * filtered by strategy or kind, no index missing in between.
 */

const header = z.object({
  format: z.literal(ACTIVITY_EXPORT_FORMAT),
  version: z.literal(1),
  profileId: z.string(),
  profileName: z.string().nullable(),
  filter: activityFilter,
  entries: z.number().int().nonnegative(),
  exportedAt: z.string(),
});

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');
const line = z
  .object({
    seq: z.number().int().positive(),
    profileId: z.string(),
    chainIndex: z.number().int().positive(),
    at: z.string(),
    kind: z.enum(ACTIVITY_KINDS),
    strategyId: z.string().nullable(),
    versionId: z.string().nullable(),
    refersTo: z.number().int().positive().nullable(),
    payload: z.record(z.string(), z.unknown()),
    previousHash: hex64,
    hash: hex64,
  })
  .strict();

export type ExportCheck =
  { ok: true; message: string; entries: number } | { ok: false; message: string };

const problem = (message: string): ExportCheck => ({ ok: false, message });

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'line'} ${i.message}`).join('; ');

export async function verifyActivityExport(path: string): Promise<ExportCheck> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let head: z.infer<typeof header> | null = null;
  let walker: ChainWalker | null = null;
  let first: number | null = null;
  let last: number | null = null;
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text === '' && number > 1) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return problem(`Line ${number} is not JSON.`);
    }
    if (!head) {
      const parsed = header.safeParse(json);
      if (!parsed.success)
        return problem(
          `Line 1 is not the header of a Strategy desk activity export: ${issues(parsed.error)}.`,
        );
      head = parsed.data;
      const filtered = head.filter.strategyId !== undefined || head.filter.kinds !== undefined;
      walker = new ChainWalker({
        allowGaps: filtered,
        startAnywhere: filtered || head.filter.from !== undefined,
      });
      continue;
    }
    const parsed = line.safeParse(json);
    if (!parsed.success)
      return problem(`Line ${number} is not an activity entry: ${issues(parsed.error)}.`);
    const entry = parsed.data;
    if (entry.profileId !== head.profileId)
      return problem(`Line ${number} belongs to another profile (${entry.profileId}).`);
    let payloadCanonical: string;
    try {
      payloadCanonical = canonicalJson(entry.payload);
    } catch (error) {
      return problem(`Line ${number}: ${(error as Error).message}`);
    }
    const name = entry.payload.profileName;
    const broken = walker!.feed({
      ...entry,
      payloadCanonical,
      profileName: () => (typeof name === 'string' ? name : head!.profileName),
    });
    if (broken) {
      // An entry said missing may only have been moved further down the file.
      if (last !== null && broken.chainIndex === last + 1)
        for await (const rest of lines)
          if (rest.includes(`"chainIndex":${broken.chainIndex},`))
            return problem(
              `Entry ${broken.chainIndex} of profile ${head.profileName ?? head.profileId} is out of place: it comes later in the file than entry ${entry.chainIndex} (lines were reordered).`,
            );
      return problem(broken.reason);
    }
    first ??= entry.chainIndex;
    last = entry.chainIndex;
  }
  if (!head) return problem('The file is empty: it has no header line.');
  const count = walker!.entries;
  if (count !== head.entries)
    return problem(
      `The header announces ${head.entries} entries but the file holds ${count}: entries were removed or added.`,
    );
  const profile = head.profileName ?? head.profileId;
  return {
    ok: true,
    entries: count,
    message:
      count === 0
        ? `OK: 0 entries of profile ${profile}`
        : `OK: ${count} entries, chain ${first}..${last} of profile ${profile}`,
  };
}
