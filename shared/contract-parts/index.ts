import { z } from 'zod';
import { uuid } from '../domain/resources';

/**
 * What every area of the contract (`shared/<area>/contract.ts`, joined in shared/contract.ts)
 * builds its channels from: a method is an input and an output schema; the references to a
 * profile, a strategy, a version and a draft that several areas take.
 */

export const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({
  input,
  output,
});
export const none = z.object({}).strict();
export const ok = z.object({ ok: z.literal(true) });

export const profileRef = z.object({ profileId: uuid }).strict();
export const strategyRef = z.object({ profileId: uuid, strategyId: uuid }).strict();
export const versionRef = z.object({ profileId: uuid, strategyId: uuid, versionId: uuid }).strict();
export const draftRef = z.object({ draftId: uuid }).strict();

/**
 * An export's id, chosen by the caller (a UUID) so the `export-progress` events it hears while
 * the export runs are known to be its own; the desk chooses one when none is given.
 */
export const exportIdField = { exportId: uuid.optional() };

export const exportResult = z.object({
  exportId: z.string(),
  path: z.string(),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type ExportResult = z.infer<typeof exportResult>;
