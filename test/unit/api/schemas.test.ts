import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/core/api';
import {
  ValidatedBodies,
  strategyResponse,
  versionResponse,
} from '../../../electron/core/api/schemas';
import { strategyBody, versionBody } from './fake-service';

describe('response validation', () => {
  it('a repeated body gives an equal, separate value; a bad body is never remembered', () => {
    const bodies = new ValidatedBodies(2);
    const text = JSON.stringify(strategyBody);
    const first = bodies.parse(strategyResponse, text, 'getStrategy');
    const second = bodies.parse(strategyResponse, text, 'getStrategy');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    // The same text against another schema is validated again (and fails).
    expect(() => bodies.parse(versionResponse, text, 'getVersion')).toThrow(ServiceError);
    const bad = JSON.stringify({ data: { ...strategyBody.data, fee_percent: 0.5 } });
    for (let i = 0; i < 2; i++) {
      const err = (() => {
        try {
          bodies.parse(strategyResponse, bad, 'getStrategy');
        } catch (e) {
          return e as ServiceError;
        }
      })();
      expect(err?.kind).toBe('bad_response');
      expect(err?.details.issues?.[0]).toMatch(/^data\.fee_percent: /);
    }
  });

  it('forgets the oldest body beyond its size', () => {
    const bodies = new ValidatedBodies(1);
    const a = JSON.stringify(versionBody);
    const b = JSON.stringify({ data: { ...versionBody.data, status: 'COMPLETE' } });
    expect(bodies.parse(versionResponse, a, 'getVersion').data.status).toBe('PENDING');
    expect(bodies.parse(versionResponse, b, 'getVersion').data.status).toBe('COMPLETE');
    expect(bodies.parse(versionResponse, a, 'getVersion').data.status).toBe('PENDING');
  });
});
