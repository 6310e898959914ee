import type { z } from 'zod';
import type { activityFact, activityTable } from '../../../shared/activity/views';
import { kindInTodaysWords } from '../../../shared/errors';
import { text } from './describe';

/**
 * An error's kind in today's word (shared/errors/kinds.ts): an entry keeps the spelling it was
 * written with, since it is hashed as stored; it is only shown in the one vocabulary.
 */
export const errorKind = (kind: unknown) =>
  text(typeof kind === 'string' ? kindInTodaysWords(kind) : kind);

/** The parts an entry's details are made of (detail.ts): facts, tables, a version's content. */

export type Fact = z.infer<typeof activityFact>;
export type Table = z.infer<typeof activityTable>;
export type Payload = Record<string, unknown>;

export const list = (value: unknown): Payload[] =>
  Array.isArray(value)
    ? value.filter((v): v is Payload => v !== null && typeof v === 'object')
    : [];

export const yesNo = (value: unknown) => (value === true ? 'Yes' : value === false ? 'No' : '—');
/** A table cell: a flag reads Yes or No, like the facts. */
export const cell = (value: unknown) => (typeof value === 'boolean' ? yesNo(value) : text(value));

export function table(title: string, columns: [string, string][], rows: Payload[]): Table[] {
  if (rows.length === 0) return [];
  return [
    {
      title,
      columns: columns.map(([, label]) => label),
      rows: rows.map((r) => columns.map(([key]) => cell(r[key]))),
    },
  ];
}

export const POSITION_COLUMNS: [string, string][] = [
  ['symbol', 'Symbol'],
  ['oldWeight', 'Old weight'],
  ['weight', 'Weight'],
  ['action', 'Action'],
];
export const ORDER_COLUMNS: [string, string][] = [
  ['symbol', 'Symbol'],
  ['side', 'Side'],
  ['status', 'Status'],
  ['orderQuantity', 'Quantity'],
  ['orderValue', 'Value'],
  ['filledQuantity', 'Filled quantity'],
  ['filledValue', 'Filled value'],
  ['filledAveragePrice', 'Average price'],
  ['statusReason', 'Reason'],
];

export function bodyPositions(requestBody: unknown): Payload[] {
  if (typeof requestBody !== 'string') return [];
  try {
    return list((JSON.parse(requestBody) as { data?: { positions?: unknown } }).data?.positions);
  } catch {
    return [];
  }
}

export function versionFacts(v: Payload | null): Fact[] {
  if (!v) return [{ label: 'Content', value: 'Not read before deletion' }];
  return [
    // The service gives no status until a rebalance starts: say so rather than show a gap.
    {
      label: 'Status',
      value: v.status === null ? 'None: no rebalance was started' : text(v.status),
    },
    { label: 'Cash weight', value: text(v.cashWeight) },
    { label: 'Old cash weight', value: text(v.oldCashWeight) },
    { label: 'Scheduled for', value: text(v.scheduledFor) },
    { label: 'Executed at', value: text(v.executedAt) },
    { label: 'Created at the service', value: text(v.insertedAt) },
  ];
}

export function versionTables(v: Payload | null, of = ''): Table[] {
  if (!v) return [];
  return [
    ...table(`Positions${of}`, POSITION_COLUMNS, list(v.positions)),
    ...table(`Orders${of}`, ORDER_COLUMNS, list(v.orders)),
  ];
}

export const object = (value: unknown): Payload | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Payload) : null;

/**
 * What the manager saw of a deleted version: its content read just before the delete, or why
 * it was not read (and, then, the copy this app held). An entry written before the app read
 * versions before deleting them holds only that copy.
 */
export function deletedContent(p: Payload): { facts: Fact[]; tables: Table[] } {
  const lastRead = object(p.lastRead);
  const heldCopy = (): { facts: Fact[]; tables: Table[] } =>
    lastRead
      ? {
          facts: [
            { label: 'Last copy held here, read at', value: text(lastRead.syncedAt) },
            ...versionFacts(lastRead),
          ],
          tables: versionTables(lastRead, ' (last copy held here)'),
        }
      : { facts: [{ label: 'Copy held here', value: 'None' }], tables: [] };
  switch (p.shownBeforeDelete) {
    case 'read': {
      const read = object(p.readBeforeDelete);
      return {
        facts: [
          {
            label: 'Content',
            value: 'Read from the service just before deleting: what the manager was shown',
          },
          { label: 'Read at', value: text(read?.readAt) },
          ...versionFacts(read),
        ],
        tables: versionTables(read),
      };
    }
    case 'unread-acknowledged': {
      const error = object(p.readError);
      const copy = heldCopy();
      return {
        facts: [
          {
            label: 'Content',
            value:
              'Not read: the app could not read the version, and the manager acknowledged deleting it unseen',
          },
          { label: 'Read tried at', value: text(error?.triedAt) },
          { label: 'Read error', value: text(error?.message) },
          { label: 'Read error kind', value: errorKind(error?.kind) },
          { label: 'Read HTTP status', value: text(error?.status) },
          ...copy.facts,
        ],
        tables: copy.tables,
      };
    }
    case 'gone': {
      const copy = heldCopy();
      return {
        facts: [
          {
            label: 'Content',
            value:
              'Not read: the version was already gone at the service when read before deleting',
          },
          ...copy.facts,
        ],
        tables: copy.tables,
      };
    }
    default:
      return { facts: versionFacts(lastRead), tables: versionTables(lastRead) };
  }
}
