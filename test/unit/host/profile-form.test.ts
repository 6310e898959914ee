import { describe, expect, it } from 'vitest';
import { baseUrlProblem, profileProblems } from '../../../renderer/src/lib/profile-form';

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
