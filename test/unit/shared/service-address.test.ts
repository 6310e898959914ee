import { describe, expect, it } from 'vitest';
import {
  isLoopbackHost,
  normalServiceAddress,
  serviceAddressProblem,
} from '../../../shared/profiles/service-address';

describe('the service address rule (form, contract and desk alike)', () => {
  /** Each refusal names what is wrong, in the words the form shows under the field. */
  const refusals: Record<string, string> = {
    ' ': 'Enter the service address.',
    'ws://api.example.com': 'must start with https://',
    'http://192.168.1.2:4010': 'Use https://.',
    'https://me:pw@api.example.com': 'Leave the user name and password out',
    'https://api.example.com/#top': 'Leave out anything after the path',
  };
  it.each(Object.entries(refusals))('refuses %j: %s', (address, problem) => {
    expect(serviceAddressProblem(address)).toContain(problem);
  });

  it.each([
    'https://api.example.com',
    ' https://api.example.com/v1/ ',
    'http://localhost:4010',
    'http://127.0.0.1:4010',
    'http://127.1.2.3',
    'http://[::1]:8080',
  ])('accepts %j', (address) => {
    expect(serviceAddressProblem(address)).toBeNull();
  });

  it('stores the origin and path without a trailing slash', () => {
    expect(normalServiceAddress(' https://API.example.com/v1// ')).toBe(
      'https://api.example.com/v1',
    );
    expect(normalServiceAddress('not an address')).toBeNull();
  });

  it('knows this computer by name and by every 127.x address', () => {
    expect(['localhost', '127.0.0.1', '127.9.9.9', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['127.0.0.1.example.com', '10.0.0.1', 'example.com'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
