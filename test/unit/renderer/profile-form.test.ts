import { describe, expect, it } from 'vitest';
import {
  baseUrlProblem,
  fieldOfError,
  profileChanges,
  profileProblems,
} from '../../../renderer/src/lib/profile-form';

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
