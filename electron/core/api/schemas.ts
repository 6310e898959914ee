import { z } from 'zod';
import { strategy, tokenResponse, version } from '../../../shared/domain/resources';
import { ServiceError, type Operation } from './errors';
import { readStrategyResponse, readVersionResponse, type ResourceReader } from './resource-readers';

/**
 * The service's response wrappers (`{data: ...}`), and the one place that turns a body into a
 * typed value or a `bad-response` error. Nothing is returned half-parsed.
 */

export const strategyResponse = z.object({ data: strategy });
export const versionResponse = z.object({ data: version });
export { tokenResponse };

/** Answers read on every poll get a one-pass reader; zod still decides whatever it gives up on. */
const READERS = new Map<z.ZodType, ResourceReader<unknown>>([
  [versionResponse, readVersionResponse],
  [strategyResponse, readStrategyResponse],
]);

/**
 * Parse JSON text against a schema; any failure is a bad-response naming, in plain words, the
 * first field that broke. The parser's own words stay in `details.issues` for the disclosure.
 */
export function parseBody<T>(schema: z.ZodType<T>, text: string, operation: Operation): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badResponse(operation, ['the answer is not JSON']);
  }
  const read = READERS.get(schema)?.(json);
  if (read !== undefined) return read as T;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const all = parsed.error.issues;
    throw badResponse(
      operation,
      all.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`),
      { plain: plainIssue(all[0]!, json), count: all.length },
    );
  }
  return parsed.data;
}

/** A field's place in the answer as a reader writes it: data.orders[3].quantity. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

const KIND_OF: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** One schema problem in plain words: which field, and whether it is missing or of another kind. */
function plainIssue(issue: z.core.$ZodIssue, json: unknown): string {
  if (issue.path.length === 0) return 'the answer is not an object of the expected form';
  let value: unknown = json;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | null)?.[key];
  const field = fieldName(issue.path);
  if (value === undefined) return `${field} is missing`;
  if (issue.code === 'invalid_type') {
    const kind = KIND_OF[issue.expected];
    return kind ? `${field} is not ${kind}` : `${field} is not of the expected kind`;
  }
  // Money is read strictly: the field, the value and what is wrong with it.
  if (typeof value === 'string' && /decimal/.test(issue.message))
    return `${field} is not a decimal number ("${preview(value)}" ${decimalProblem(value)})`;
  if (typeof value === 'string' && /timestamp/.test(issue.message))
    return `${field} is not an ISO 8601 timestamp ("${preview(value)}")`;
  if (issue.code === 'invalid_value' && typeof value === 'string')
    return `${field} has a value the app does not know ("${preview(value)}")`;
  return `${field} has a value the app does not accept`;
}

/** A value shown in a message: short, one line. */
function preview(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is taken out
  const flat = value.replace(/[\x00-\x1f\x7f]/g, ' ');
  return flat.length > 24 ? `${flat.slice(0, 24)}…` : flat;
}

/** What is wrong with a decimal the service sent, in a few words. */
function decimalProblem(value: string): string {
  if (value.trim() !== value) return 'has spaces around it';
  if (/^[+-]?(nan|infinity|inf)$/i.test(value)) return 'is not a number';
  if (/e/i.test(value)) return 'uses exponent notation';
  if (value.includes(',')) return 'uses a comma';
  if (value.startsWith('+')) return 'has a plus sign';
  if (value.startsWith('.') || value.endsWith('.')) return 'lacks a digit beside the dot';
  return 'is not written as the interface writes decimals';
}

/**
 * An answer the app cannot use. `issues` are kept as details; the message shows `plain` (by
 * default the first issue) and how many problems (`count`, by default the issues) follow it.
 */
export function badResponse(
  operation: Operation,
  issues: string[],
  extra: { ambiguous?: boolean; status?: number; plain?: string; count?: number } = {},
): ServiceError {
  const plain = extra.plain ?? issues[0] ?? 'it is not of the documented form';
  const others = (extra.count ?? issues.length) - 1;
  const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'problem' : 'problems'})` : '';
  return new ServiceError({
    kind: 'bad-response',
    operation,
    status: extra.status,
    ambiguous: extra.ambiguous ?? false,
    message: `The service's answer could not be read: ${plain}${more}`,
    details: { issues, problem: `${plain}${more}` },
  });
}
