import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../../shared/views';
import {
  missingScopes,
  SCOPE_LABELS,
  scopeBlockedReason,
} from '../../../../renderer/src/lib/capabilities';
import { SCOPES } from '../../../../shared/domain/resources';

function profile(grantedScopes: string[] | null): ProfileView {
  return {
    id: '7d7f6f3e-31a4-4a3c-9d0e-2a5b8c1d9e01',
    name: 'Viewer',
    baseUrl: 'https://api.example.com',
    clientId: 'demo-viewer',
    environment: 'production',
    secretStorage: 'keychain',
    hasSecret: true,
    grantedScopes,
    createdAt: '2026-01-01T00:00:00.000000Z',
  };
}

describe('actions and scopes', () => {
  const viewer = profile(['strategies:read', 'strategy_versions:read']);

  it('lists the scopes the last token did not grant', () => {
    expect(missingScopes(viewer, ['strategies:read', 'strategy_versions:execute'])).toEqual([
      'strategy_versions:execute',
    ]);
  });

  it('blocks nothing before a token was seen', () => {
    expect(scopeBlockedReason(profile(null), ['strategy_versions:delete'], 'delete')).toBeNull();
  });

  it('gives the reason in words, naming every missing scope', () => {
    expect(scopeBlockedReason(viewer, ['strategies:read'], 'read strategies')).toBeNull();
    expect(
      scopeBlockedReason(
        viewer,
        ['strategy_versions:create', 'strategy_versions:execute'],
        'execute versions',
      ),
    ).toBe(
      'This client lacks the scopes strategy_versions:create and strategy_versions:execute: it cannot execute versions.',
    );
    expect(scopeBlockedReason(null, ['strategies:read'], 'x')).toBe('Choose a profile first.');
  });

  it('explains every scope of the service', () => {
    for (const scope of SCOPES) expect(SCOPE_LABELS[scope]).toBeTruthy();
  });
});
