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
