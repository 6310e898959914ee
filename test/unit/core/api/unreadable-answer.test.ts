import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/api';
import { parseBody, strategyResponse } from '../../../../electron/core/api/schemas';

/** The error of a body the app cannot read. */
async function unreadable(text: string): Promise<ServiceError> {
  const error = await Promise.resolve()
    .then(() => parseBody(strategyResponse, text, 'getStrategy'))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

const strategy = {
  id: '6f1e4d0a-6a47-4d38-9d3f-1d0c7b0a0001',
  name: 'Core Equity',
  description: '',
  fee_percent: '0.5',
  is_liquidate_only: false,
  liquidate_only_reason: null,
  inserted_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  positions: [],
};

describe('an answer the app cannot read', async () => {
  it('names the field in plain words, with the parser words in details only', async () => {
    const nested = '{"a":'.repeat(2000) + '1' + '}'.repeat(2000);
    const error = await unreadable(`{"data": {"id": ${nested}}}`);
    expect(error.kind).toBe('bad-response');
    expect(error.message).toMatch(/^The service's answer could not be read: data\.id is not text/);
    expect(error.message).not.toMatch(/Invalid input|expected|received/);
    expect(error.details.issues?.[0]).toMatch(/^data\.id: Invalid input/);
  });

  it('says which nested field is missing, in reading order', async () => {
    const broken = { ...strategy, positions: [{ id: strategy.id, symbol: 'AAPL' }] };
    const error = await unreadable(JSON.stringify({ data: broken }));
    expect(error.message).toMatch(/: data\.positions\[0\]\.quantity is missing/);
    expect(error.message).not.toMatch(/Invalid input|undefined/);
  });

  it('counts every problem behind the first', async () => {
    const error = await unreadable('{"data": {"id": 5}}');
    expect(error.message).toMatch(/ \(and \d+ more problems\)$/);
    expect((await unreadable('not json')).message).toBe(
      "The service's answer could not be read: the answer is not JSON",
    );
  });
});
