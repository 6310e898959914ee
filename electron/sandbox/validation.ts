import { z } from 'zod';
import { parseDecimal } from '../../shared/decimal';
import type { RequestedPosition } from './engine';
import { D, str } from './money';

/** Input checks for the sandbox's routes, with messages a strategy manager can act on. */

export const MAX_POSITIONS = 1000;
export const MAX_WEIGHT = '98';
/** Longer weights are refused so sums stay exact and error bodies small. */
export const MAX_WEIGHT_LENGTH = 40;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Deeper JSON is refused before parsing: walking it would exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

/** The body as JSON: needs a JSON content type and text that parses. */
export function parseJsonBody(raw: unknown, contentType: string | undefined): Parsed<unknown> {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(media)) {
    return {
      ok: false,
      detail: `The body must be JSON sent with Content-Type: application/json (got ${media === '' ? 'no content type' : media}).`,
    };
  }
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { ok: false, detail: 'The body is empty; it must be a JSON object.' };
  }
  if (jsonDepth(raw) > MAX_JSON_DEPTH) {
    return { ok: false, detail: `The body is nested more than ${MAX_JSON_DEPTH} levels deep.` };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, detail: `The body is not valid JSON: ${(error as Error).message}` };
  }
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings ignored). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

/**
 * The `include` query: a comma-separated list of allowed names (empty items
 * are skipped; a repeated parameter counts as one list).
 */
export function parseInclude(raw: unknown, allowed: readonly string[]): Parsed<Set<string>> {
  if (raw === undefined) return { ok: true, value: new Set() };
  const text = Array.isArray(raw) ? raw.join(',') : String(raw);
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length > 0) {
    return {
      ok: false,
      detail: `include has unknown value ${unknown.map((u) => `"${u}"`).join(', ')}; allowed: ${allowed.join(', ')}.`,
    };
  }
  return { ok: true, value: new Set(names) };
}

export type TargetCheck =
  | { ok: true; positions: RequestedPosition[] }
  | { ok: false; detail: string; field: string; messages: string[] };

const positionShape = z.object(
  {
    symbol: z.string({ error: 'symbol must be text' }).min(1, 'symbol is empty'),
    weight: z.string({ error: 'weight must be a decimal number written as text, e.g. "12.5"' }),
  },
  { error: 'must be an object with symbol and weight' },
);

export const targetShape = z.object(
  {
    data: z.object(
      { positions: z.array(positionShape, { error: 'data.positions must be a list' }) },
      { error: 'data must be an object holding positions' },
    ),
  },
  { error: 'the body must be a JSON object {"data": {"positions": [...]}}' },
);

/** zod does not report the input by default: look the value up to tell "missing" from "wrong". */
function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let value: unknown = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeIssue(body: unknown, issue: z.core.$ZodIssue): string {
  const [first, second, index, key] = issue.path;
  const missing = issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined;
  if (first === 'data' && second === 'positions' && typeof index === 'number') {
    const where = `position ${index + 1}`;
    if (missing && typeof key === 'string') return `${where}: ${key} is required`;
    return `${where}: ${issue.message}`;
  }
  if (missing && issue.path.length > 0) return `${issue.path.join('.')} is required`;
  return issue.message;
}

function failure(field: string, messages: string[]): TargetCheck {
  const shown = messages.slice(0, 50);
  const more = messages.length > 1 ? ` (and ${messages.length - 1} more)` : '';
  return {
    ok: false,
    detail: `The target is not valid: ${shown[0]}${more}.`,
    field,
    messages: shown,
  };
}

/**
 * A target portfolio: every weight a decimal string from 0 to 98, the sum at
 * most 98 (at least 2 percent stays in cash), no duplicate symbol, 1 to 1000 positions.
 */
export function checkTarget(body: unknown): TargetCheck {
  const rawPositions = (body as { data?: { positions?: unknown } } | null)?.data?.positions;
  if (Array.isArray(rawPositions) && rawPositions.length > MAX_POSITIONS) {
    return failure('positions', [
      `there are ${rawPositions.length} positions; at most ${MAX_POSITIONS} are allowed`,
    ]);
  }
  const shape = targetShape.safeParse(body);
  if (!shape.success) {
    const field = shape.error.issues.some((i) => i.path[1] === 'positions') ? 'positions' : 'data';
    return failure(
      field,
      shape.error.issues.map((i) => describeIssue(body, i)),
    );
  }
  const positions = shape.data.data.positions;
  if (positions.length === 0)
    return failure('positions', ['there are no positions; send at least one']);
  const messages: string[] = [];
  const seen = new Set<string>();
  let sum = new D(0);
  let sumKnown = true;
  positions.forEach((p, i) => {
    const where = `position ${i + 1} (${p.symbol})`;
    if (seen.has(p.symbol)) messages.push(`${where}: ${p.symbol} appears more than once`);
    seen.add(p.symbol);
    if (p.weight.length > MAX_WEIGHT_LENGTH) {
      messages.push(
        `${where}: weight has too many digits (at most ${MAX_WEIGHT_LENGTH} characters)`,
      );
      sumKnown = false;
      return;
    }
    const weight = parseDecimal(p.weight);
    if (!weight.ok) {
      messages.push(`${where}: weight "${p.weight}" ${weight.error}`);
      sumKnown = false;
      return;
    }
    const value = new D(weight.value);
    if (value.lt(0)) messages.push(`${where}: weight ${p.weight} is below 0`);
    else if (value.gt(MAX_WEIGHT))
      messages.push(`${where}: weight ${p.weight} is above ${MAX_WEIGHT}`);
    sum = sum.plus(value);
  });
  if (sumKnown && messages.length === 0 && sum.gt(MAX_WEIGHT)) {
    messages.push(
      `the weights add up to ${str(sum)}; they may add up to at most ${MAX_WEIGHT} (at least 2 percent stays in cash)`,
    );
  }
  if (messages.length > 0) return failure('positions', messages);
  return { ok: true, positions: positions.map((p) => ({ symbol: p.symbol, weight: p.weight })) };
}

/** Optional Idempotency-Key: visible ASCII, 1 to 255 characters. */
export function checkIdempotencyKey(raw: string | string[] | undefined): Parsed<string | null> {
  if (raw === undefined) return { ok: true, value: null };
  const key = Array.isArray(raw) ? raw.join(', ') : raw;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    return {
      ok: false,
      detail: `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters without spaces.`,
    };
  }
  return { ok: true, value: key };
}

/** Token request body (JSON); with Basic, client_id and client_secret are left out. */
export const tokenBody = z
  .object({
    client_id: z.string({ error: 'client_id must be text' }).optional(),
    client_secret: z.string({ error: 'client_secret must be text' }).optional(),
    scope: z.string({ error: 'scope must be text: scope names separated by spaces' }).optional(),
    grant_type: z.literal('client_credentials', 'grant_type must be client_credentials').optional(),
  })
  .loose();

const rateLimit = z
  .object({
    limit: z.int().min(1).max(1_000_000),
    window_s: z.int().min(1).max(86_400),
  })
  .strict();

export const faultsPatch = z
  .object({
    latency_ms: z.int().min(0).max(60_000),
    fail_next: z.int().min(0),
    fail_next_method: z.enum(['GET', 'POST', 'DELETE']).nullable(),
    fail_status: z.union([
      z.literal(429),
      z.literal(500),
      z.literal(502),
      z.literal(503),
      z.literal(504),
    ]),
    fail_rate: z.number().min(0).max(1),
    drop_after_commit_next: z.int().min(0),
    fail_after_commit_next: z.int().min(0),
    reply_next: z
      .object({
        status: z.int().min(200).max(599),
        body: z.string().max(65_536),
        content_type: z.string().min(1).max(200).default('application/json; charset=utf-8'),
      })
      .strict()
      .nullable(),
    drip: z
      .object({ bytes: z.int().min(1).max(65_536), interval_ms: z.int().min(1).max(60_000) })
      .strict()
      .nullable(),
    malformed_json_next: z.int().min(0),
    wrong_types_next: z.int().min(0),
    token_lifetime_s: z.int().min(1).max(31_536_000),
    token_rate_limit: rateLimit.nullable(),
    api_rate_limit: rateLimit.nullable(),
    timestamp_offset_minutes: z.int().min(-1439).max(1439).nullable(),
    fail_strategies: z.array(z.string().regex(UUID_PATTERN, 'must be a strategy id')).max(10_000),
    partial_fills: z.record(
      z.string().min(1).max(20),
      z
        .string()
        .regex(/^0\.\d{1,20}$/, 'must be the fraction that fills, between 0 and 1, e.g. "0.5"')
        .refine((f) => /[1-9]/.test(f), 'must be more than 0'),
    ),
  })
  .partial()
  .strict();

export const timingBody = z.object({ step_ms: z.int().min(0).max(600_000) }).strict();

export const unexecutedBody = z
  .object({
    positions: z
      .array(z.object({ symbol: z.string().min(1), weight: z.string() }).strict())
      .optional(),
    scheduled_for: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .strict();

/** zod issues as "path: message" lines for admin 400 bodies. */
export function issueLines(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}
