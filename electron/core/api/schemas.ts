import { z } from 'zod';
import { strategy, tokenResponse, version } from '../../../shared/domain/resources';
import { ServiceError, type Operation } from './errors';

/**
 * The service's response wrappers (`{data: ...}`), and the one place that turns a body into a
 * typed value or a `bad_response` error. Nothing is returned half-parsed.
 */

export const strategyResponse = z.object({ data: strategy });
export const versionResponse = z.object({ data: version });
export { tokenResponse };

/** Parse JSON text against a schema; any failure is a bad_response naming where it broke. */
export function parseBody<T>(schema: z.ZodType<T>, text: string, operation: Operation): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badResponse(operation, ['the answer is not JSON']);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw badResponse(
      operation,
      parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

export function badResponse(
  operation: Operation,
  issues: string[],
  extra: { ambiguous?: boolean; status?: number } = {},
): ServiceError {
  return new ServiceError({
    kind: 'bad_response',
    operation,
    status: extra.status,
    ambiguous: extra.ambiguous ?? false,
    message: `The service answered in an unexpected form (${issues.join('; ')})`,
    details: { issues },
  });
}

/**
 * Bodies already validated, by exact text. The schemas have no transforms, so the same bytes
 * always give the same verdict and value: a repeated body (a version polled while its rebalance
 * runs, a strategy refreshed) skips the second zod pass and is only JSON-parsed.
 */
export class ValidatedBodies {
  private readonly seen = new Map<z.ZodType, Set<string>>();

  constructor(
    private readonly maxEntries = 64,
    private readonly maxLength = 256 * 1024,
  ) {}

  parse<T>(schema: z.ZodType<T>, text: string, operation: Operation): T {
    let texts = this.seen.get(schema);
    if (texts?.has(text)) return JSON.parse(text) as T;
    const value = parseBody(schema, text, operation);
    if (text.length <= this.maxLength) {
      if (!texts) this.seen.set(schema, (texts = new Set()));
      if (texts.size >= this.maxEntries) texts.delete(texts.values().next().value!);
      texts.add(text);
    }
    return value;
  }
}
