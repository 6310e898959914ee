import { z } from 'zod';
import { uuid } from './domain/resources';

/**
 * What every area of the contract (shared/contract.ts and the areas kept in files of their own:
 * book/, models/, batches/) builds its channels from: a method is an input and an output schema.
 */

export const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({
  input,
  output,
});
export const none = z.object({}).strict();
export const ok = z.object({ ok: z.literal(true) });

export const profileRef = z.object({ profileId: uuid }).strict();
export const strategyRef = z.object({ profileId: uuid, strategyId: uuid }).strict();
