import { describe, expect, it } from 'vitest';
import { shortenIds } from '../../../../renderer/src/lib/format';

describe('shortenIds', () => {
  it('shortens every version id of a sentence to its first eight digits, nothing else', () => {
    expect(shortenIds('Version a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03 ended: FAILED')).toBe(
      'Version a1c3e5f7… ended: FAILED',
    );
    expect(
      shortenIds(
        'Service accepted the execution as version DDE2BF48-D658-403E-B52C-9E3F6EB93B22 (was 5b0e6f0a-3c1d-4e2b-9a47-1f6d2c8e7b01)',
      ),
    ).toBe('Service accepted the execution as version DDE2BF48… (was 5b0e6f0a…)');
    for (const text of ['Strategy “Core Equity” added', '208333.25 filled value', 'a1c3e5f7-9b2d'])
      expect(shortenIds(text)).toBe(text);
  });
});
