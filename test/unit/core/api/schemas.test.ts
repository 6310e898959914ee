import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/api';
import {
  parseBody,
  strategyResponse,
  versionResponse,
} from '../../../../electron/core/api/schemas';
import { toUtcTimestamp } from '../../../../shared/domain/resources';
import { strategyBody, versionBody } from './fake-service';

function badResponseOf(run: () => unknown): ServiceError {
  const error = (() => {
    try {
      run();
    } catch (e) {
      return e;
    }
  })();
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('response validation', () => {
  it('refuses a body of the wrong shape, naming where it broke', () => {
    const bad = JSON.stringify({ data: { ...strategyBody.data, fee_percent: 0.5 } });
    const error = badResponseOf(() => parseBody(strategyResponse, bad, 'getStrategy'));
    expect(error.kind).toBe('bad-response');
    expect(error.details.issues?.[0]).toMatch(/^data\.fee_percent: /);
    // The same text against another schema is refused too.
    const text = JSON.stringify(strategyBody);
    expect(() => parseBody(versionResponse, text, 'getVersion')).toThrow(ServiceError);
  });

  it('stores every timestamp as the same instant in UTC, microseconds kept', () => {
    const body = {
      data: {
        ...versionBody.data,
        executed_at: '2026-11-22T23:00:00.000001+02:00',
        inserted_at: '2026-11-22T16:59:59.5-05:30',
        scheduled_for: '2026-11-23T00:00Z',
      },
    };
    const { data } = parseBody(versionResponse, JSON.stringify(body), 'getVersion');
    expect(data.executed_at).toBe('2026-11-22T21:00:00.000001Z');
    expect(data.inserted_at).toBe('2026-11-22T22:29:59.500000Z');
    expect(data.scheduled_for).toBe('2026-11-23T00:00:00.000000Z');
  });

  it('refuses a timestamp without a zone or on a day that does not exist', () => {
    for (const executed_at of ['2026-11-22T23:00:00', '2026-02-29T10:00:00Z', '22/11/2026']) {
      const body = JSON.stringify({ data: { ...versionBody.data, executed_at } });
      const error = badResponseOf(() => parseBody(versionResponse, body, 'getVersion'));
      expect(error.details.issues).toEqual(['data.executed_at: must be an ISO 8601 timestamp']);
    }
  });
});

describe('toUtcTimestamp', () => {
  it('gives one text per instant, so text order is time order', () => {
    expect(toUtcTimestamp('2026-11-22T23:00:00.000000+02:00')).toBe('2026-11-22T21:00:00.000000Z');
    expect(toUtcTimestamp('2026-11-22T21:00:00.000000Z')).toBe('2026-11-22T21:00:00.000000Z');
    expect(toUtcTimestamp('2026-11-22T21:00:00+0000')).toBe('2026-11-22T21:00:00.000000Z');
    expect(toUtcTimestamp('2026-12-31T23:30:00.123456789-01:00')).toBe(
      '2027-01-01T00:30:00.123456Z',
    );
    expect(toUtcTimestamp('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000000Z');
    // Past the range of four-digit years.
    expect(toUtcTimestamp('9999-12-31T23:30:00-01:00')).toBeUndefined();
  });
});
