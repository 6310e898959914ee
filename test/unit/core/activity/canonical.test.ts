import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  entryCanonical,
  entryHash,
} from '../../../../electron/core/store/repositories/activity-canonical';
import { CHAIN_START } from '../../../../shared/activity/kinds';

describe('the canonical form of an activity entry', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, 'x'], c: 'é"\n' } })).toBe(
      '{"a":{"c":"é\\"\\n","d":[true,null,"x"]},"b":1}',
    );
  });

  it('leaves out undefined fields and refuses what JSON cannot carry exactly', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(() => canonicalJson({ weight: 0.1 })).toThrow(/whole numbers/);
    expect(() => canonicalJson({ third: 1 / 3 })).toThrow(/whole numbers/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });

  it('is the same text JSON.parse gives back for canonical payloads', () => {
    const text = canonicalJson({ z: ['1.50', { y: 'a', x: 2 }], a: null });
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it('builds the entry text with keys in sorted order, payload as given', () => {
    const fields = {
      seq: 7,
      profileId: 'p',
      chainIndex: 3,
      at: '2026-11-20T14:03:00.000Z',
      kind: 'strategy-added',
      strategyId: 's',
      versionId: null,
      refersTo: null,
    };
    const text = entryCanonical(fields, '{"strategyName":"Core"}');
    expect(text).toBe(canonicalJson({ ...fields, payload: { strategyName: 'Core' } }));
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'at',
      'chainIndex',
      'kind',
      'payload',
      'profileId',
      'refersTo',
      'seq',
      'strategyId',
      'versionId',
    ]);
  });

  it('hashes sha256(previous hash, newline, canonical text) as lowercase hex', () => {
    const expected = createHash('sha256').update(`${CHAIN_START}\n{"a":1}`).digest('hex');
    expect(entryHash(CHAIN_START, '{"a":1}')).toBe(expected);
    expect(entryHash(CHAIN_START, '{"a":2}')).not.toBe(expected);
  });
});
