import { describe, expect, it } from 'vitest';
import {
  NEW_ADDRESS_SECRET,
  addressChanged,
  checkOutcome,
  credentialsChanged,
  fieldOfError,
  profileChanges,
  profileProblems,
  secretHint,
} from '../../../renderer/src/lib/profile-form';

const before = { name: 'Production', baseUrl: 'https://api.example.com', clientId: 'desk' };
const fields = { ...before, secret: '' };
const editing = { editing: true, secretStored: true };

describe('a new service address and the stored secret', () => {
  it('tells a moved address from the same one written differently', () => {
    expect(addressChanged(before, { ...fields, baseUrl: 'https://api.example.com/' })).toBe(false);
    expect(addressChanged(before, { ...fields, baseUrl: ' https://API.example.com ' })).toBe(false);
    expect(addressChanged(before, { ...fields, baseUrl: 'https://other.example.com' })).toBe(true);
  });

  it('asks for the secret, or the confirmation, when the address moves', () => {
    const moved = { ...fields, baseUrl: 'https://other.example.com' };
    expect(profileProblems(moved, { ...editing, addressChanged: true }).secret).toBe(
      NEW_ADDRESS_SECRET,
    );
    expect(
      profileProblems(moved, { ...editing, addressChanged: true, sendStoredSecret: true }).secret,
    ).toBeUndefined();
    expect(
      profileProblems({ ...moved, secret: 'new' }, { ...editing, addressChanged: true }).secret,
    ).toBeUndefined();
  });

  it('sends the confirmation only with a moved address and no new secret', () => {
    const moved = { ...fields, baseUrl: 'https://other.example.com' };
    expect(profileChanges(before, moved, true)).toEqual({
      baseUrl: 'https://other.example.com',
      sendSecretToNewAddress: true,
    });
    expect(profileChanges(before, { ...moved, secret: 'new' }, true)).toEqual({
      baseUrl: 'https://other.example.com',
      secret: 'new',
    });
    expect(profileChanges(before, { ...fields, name: 'Prod' }, true)).toEqual({ name: 'Prod' });
  });

  it("puts the desk's refusal on the secret field", () => {
    expect(fieldOfError({ kind: 'secret-needed-for-new-address', message: 'x' })).toBe('secret');
  });
});

describe('the check before saving', () => {
  it('checks only when what is sent to the service changes', () => {
    expect(credentialsChanged(before, { ...fields, name: 'Other' })).toBe(false);
    expect(credentialsChanged(before, { ...fields, clientId: 'other' })).toBe(true);
    expect(credentialsChanged(before, { ...fields, secret: 's' })).toBe(true);
    expect(credentialsChanged(before, { ...fields, baseUrl: 'https://x.example.com' })).toBe(true);
  });

  it('offers to save anyway only when the service did not answer', () => {
    for (const kind of ['network', 'timeout', 'server', 'rate-limited'] as const) {
      expect(checkOutcome({ kind, message: 'm' })).toEqual({ kind: 'unreachable' });
    }
    expect(checkOutcome({ kind: 'invalid-client', message: 'm' })).toMatchObject({
      kind: 'field',
      field: 'secret',
    });
    expect(checkOutcome({ kind: 'not-found', message: 'm' })).toMatchObject({
      kind: 'field',
      field: 'baseUrl',
    });
    expect(checkOutcome({ kind: 'invalid-scope', message: 'm' })).toEqual({ kind: 'other' });
  });
});

describe('where the secret is kept, said as it is', () => {
  const create = { editing: false, secretStored: false, addressChanged: false };
  it('names the keychain only when one answered', () => {
    expect(secretHint({ ...create, storage: 'keychain' })).toContain('OS keychain');
    expect(secretHint({ ...create, storage: 'session' })).toContain('for this session only');
    expect(secretHint({ ...create, storage: 'session' })).not.toContain('keychain,');
    expect(secretHint({ ...create, storage: null })).not.toMatch(/keychain/i);
  });
});
