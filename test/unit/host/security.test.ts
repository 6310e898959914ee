import { describe, expect, it } from 'vitest';
import { allowedHost, newToken, tokenMatches } from '../../../electron/host/security';

describe('host security helpers', () => {
  it('makes a fresh 256-bit base64url token each time', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
  });

  it('matches only the exact token', () => {
    const token = newToken();
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, undefined)).toBe(false);
    expect(tokenMatches(token, '')).toBe(false);
    expect(tokenMatches(token, token.slice(1))).toBe(false);
    expect(tokenMatches(token, `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`)).toBe(
      false,
    );
  });

  it('accepts only our loopback Host with our port', () => {
    expect(allowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(allowedHost('localhost:4000', 4000)).toBe(true);
    for (const host of [
      '127.0.0.1',
      'evil.example:4000',
      '127.0.0.1:4001',
      '[::1]:4000',
      undefined,
    ]) {
      expect(allowedHost(host, 4000)).toBe(false);
    }
  });
});
