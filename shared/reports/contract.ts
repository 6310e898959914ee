import { z } from 'zod';
import { method } from '../contract-parts';
import { uuid } from '../domain/resources';
import { exportIdField, exportResult, reportSelection } from '../views';

/** CSV reports of a profile's orders. */
export const reportsContract = {
  /** Writes a CSV of orders; the host chooses where (a save dialog in the desktop app). */
  exportOrders: method(
    z.object({ profileId: uuid, selection: reportSelection, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
};

/** An export of any area wrote more rows, or finished (by the `exportId` it was given). */
export const reportsEvents = [
  z.object({
    type: z.literal('export-progress'),
    exportId: z.string(),
    rows: z.number().int().nonnegative(),
    done: z.boolean(),
  }),
] as const;
