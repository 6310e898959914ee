import { describe, expect, it } from 'vitest';
import {
  NEW_ADDRESS_SECRET,
  addressChanged,
  baseUrlProblem,
  checkOutcome,
  credentialsChanged,
  fieldOfError,
  profileChanges,
  profileProblems,
  secretHint,
} from '../../../../renderer/src/lib/profile-form';

// renderer/src/lib/profile-form.ts: its checks, the changes a form makes, and the secret's rules.
describe('the profile form', () => {
  it('accepts https anywhere and http on this computer only', () => {
    for (const ok of [
      'https://api.example.com',
      'https://api.example.com/v1/',
      'http://127.0.0.1:4010',
      'http://localhost:8080',
      'http://[::1]:4010',
    ]) {
      expect(baseUrlProblem(ok), ok).toBeNull();
    }
  });

  it('says what is wrong with an address', () => {
    expect(baseUrlProblem('')).toMatch(/Enter the service address/);
    expect(baseUrlProblem('api.example.com')).toMatch(/full address/);
    expect(baseUrlProblem('http://api.example.com')).toMatch(/Use https/);
    expect(baseUrlProblem('http://127.0.0.2.example.com')).toMatch(/Use https/);
    expect(baseUrlProblem('ftp://api.example.com')).toMatch(/https:\/\//);
    expect(baseUrlProblem('https://me:pw@api.example.com')).toMatch(/user name and password/);
  });

  it('names every missing field', () => {
    expect(
      Object.keys(profileProblems({ name: ' ', baseUrl: '', clientId: '', secret: '' })),
    ).toEqual(['name', 'baseUrl', 'clientId', 'secret']);
    expect(
      profileProblems({ name: 'Prod', baseUrl: 'https://x.example', clientId: 'c', secret: 's' }),
    ).toEqual({});
  });
});

const fields = {
  name: 'Production',
  baseUrl: 'https://api.example.com',
  clientId: 'desk',
  secret: '',
};

describe('the service address', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com/base/path',
    'http://localhost:4010',
    'http://127.0.0.1:4010',
    'http://127.3.4.5',
    'http://[::1]:8080',
  ])('accepts %s', (url) => {
    expect(baseUrlProblem(url)).toBeNull();
  });

  it.each([
    ['', 'Enter the service address.'],
    ['https://', 'Enter the service address.'],
    ['api.example.com', 'Enter a full address'],
    ['ftp://api.example.com', 'must start with https://'],
    ['http://api.example.com', 'Use https://.'],
    ['http://10.0.0.5:4010', 'Use https://.'],
    ['http://127.0.0.1.example.com', 'Use https://.'],
    ['https://user:pw@api.example.com', 'Leave the user name and password out'],
    ['https://api.example.com/?x=1', 'Leave out anything after the path'],
  ])('refuses %j in words', (url, words) => {
    expect(baseUrlProblem(url)).toContain(words);
  });
});

describe('the profile form', () => {
  it('needs a secret when creating', () => {
    expect(profileProblems(fields)).toEqual({ secret: 'Enter the client secret.' });
    expect(profileProblems({ ...fields, secret: 's' })).toEqual({});
  });

  it('keeps the stored secret when editing with the field left empty', () => {
    expect(profileProblems(fields, { editing: true, secretStored: true })).toEqual({});
  });

  it('asks for the secret plainly when editing a profile that has none stored', () => {
    expect(profileProblems(fields, { editing: true, secretStored: false }).secret).toContain(
      'No secret is stored',
    );
  });

  it('names every empty field', () => {
    const problems = profileProblems({ name: ' ', baseUrl: '', clientId: '', secret: '' });
    expect(Object.keys(problems).sort()).toEqual(['baseUrl', 'clientId', 'name', 'secret']);
  });

  it('sends only what changed, and never an empty secret', () => {
    const before = { name: 'Production', baseUrl: 'https://api.example.com', clientId: 'desk' };
    expect(profileChanges(before, fields)).toEqual({});
    expect(profileChanges(before, { ...fields, name: ' Prod 2 ', secret: 'new' })).toEqual({
      name: 'Prod 2',
      secret: 'new',
    });
  });

  it('puts the desk’s refusal of an address on the address field', () => {
    expect(
      fieldOfError({
        kind: 'invalid-input',
        message: 'The service address must start with https:// (plain http ...)',
      }),
    ).toBe('baseUrl');
    expect(fieldOfError({ kind: 'network', message: 'address unreachable' })).toBeNull();
  });
});

const before = { name: 'Production', baseUrl: 'https://api.example.com', clientId: 'desk' };
const fieldsAfter = { ...before, secret: '' };
const editing = { editing: true, secretStored: true };

describe('a new service address and the stored secret', () => {
  it('tells a moved address from the same one written differently', () => {
    expect(addressChanged(before, { ...fieldsAfter, baseUrl: 'https://api.example.com/' })).toBe(
      false,
    );
    expect(addressChanged(before, { ...fieldsAfter, baseUrl: ' https://API.example.com ' })).toBe(
      false,
    );
    expect(addressChanged(before, { ...fieldsAfter, baseUrl: 'https://other.example.com' })).toBe(
      true,
    );
  });

  it('asks for the secret, or the confirmation, when the address moves', () => {
    const moved = { ...fieldsAfter, baseUrl: 'https://other.example.com' };
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
    const moved = { ...fieldsAfter, baseUrl: 'https://other.example.com' };
    expect(profileChanges(before, moved, true)).toEqual({
      baseUrl: 'https://other.example.com',
      sendSecretToNewAddress: true,
    });
    expect(profileChanges(before, { ...moved, secret: 'new' }, true)).toEqual({
      baseUrl: 'https://other.example.com',
      secret: 'new',
    });
    expect(profileChanges(before, { ...fieldsAfter, name: 'Prod' }, true)).toEqual({
      name: 'Prod',
    });
  });

  it("puts the desk's refusal on the secret field", () => {
    expect(fieldOfError({ kind: 'secret-needed-for-new-address', message: 'x' })).toBe('secret');
  });
});

describe('the check before saving', () => {
  it('checks only when what is sent to the service changes', () => {
    expect(credentialsChanged(before, { ...fieldsAfter, name: 'Other' })).toBe(false);
    expect(credentialsChanged(before, { ...fieldsAfter, clientId: 'other' })).toBe(true);
    expect(credentialsChanged(before, { ...fieldsAfter, secret: 's' })).toBe(true);
    expect(credentialsChanged(before, { ...fieldsAfter, baseUrl: 'https://x.example.com' })).toBe(
      true,
    );
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
