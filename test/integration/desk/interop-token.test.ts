import { afterEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import {
  isExecute,
  isToken,
  jsonAnswer,
  withJson,
  type FakeService,
} from '../../support/fake-service';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * Token answers as OAuth 2 allows them (RFC 6749 5.1: `expires_in` and `scope` are optional),
 * through a manager's whole flow on the real desk, SQLite, keychain and tracker.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

/** Token answers lose the fields named; everything else is forwarded as it is. */
function tokenWithout(fake: FakeService, ...fields: ('expires_in' | 'scope')[]): void {
  fake.answer(async (req, forward) => {
    const answer = await forward();
    if (!isToken(req) || answer.status !== 200) return answer;
    return withJson(answer, (body) => {
      for (const f of fields) delete body[f];
    });
  });
}

describe('a token answer without expires_in or scope', () => {
  it('neither: the connection test says the scopes are unknown, and the flow ends COMPLETE', async () => {
    d = await openInteropDesk();
    tokenWithout(d.fake, 'expires_in', 'scope');
    const desk = d.harness.desk;
    expect(await desk.profiles.testConnection({ profileId: d.profileId })).toEqual({
      grantedScopes: null,
    });
    // Unknown, not "none": nothing is disabled for want of a scope.
    const [profile] = await desk.profiles.list({});
    expect(profile!.grantedScopes).toBeNull();
    const version = await d.execute([row('AAPL', '10')]);
    expect((await d.ended(version.id)).status).toBe('COMPLETE');
    expect((await desk.profiles.list({}))[0]!.grantedScopes).toBeNull();
  });

  it('scope given after a token without it: the stored scopes follow the newest token', async () => {
    d = await openInteropDesk();
    const desk = d.harness.desk;
    expect(
      (await desk.profiles.testConnection({ profileId: d.profileId })).grantedScopes,
    ).toContain('strategy_versions:execute');
    tokenWithout(d.fake, 'scope');
    expect(await desk.profiles.testConnection({ profileId: d.profileId })).toEqual({
      grantedScopes: null,
    });
    expect((await desk.profiles.list({}))[0]!.grantedScopes).toBeNull();
  });

  it('without scope, a 403 that names no scope is explained by what the action needs', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      if (isExecute(req)) return jsonAnswer(403, { error: 'forbidden' });
      const answer = await forward();
      if (!isToken(req)) return answer;
      return withJson(answer, (body) => {
        delete body.scope;
      });
    });
    const error = await d.execute([row('AAPL', '10')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).kind).toBe('forbidden');
    expect((error as DeskError).message).toMatch(
      /strategy_versions:create and strategy_versions:execute/,
    );
    expect((error as DeskError).message).toMatch(/did not say which/);
  });

  it('without expires_in, a token the service stops accepting is renewed on the 401 and the flow goes on', async () => {
    d = await openInteropDesk();
    const fake = d.fake;
    let refusedOnce = false;
    fake.answer(async (req, forward) => {
      // The first token stops working after the strategy was added: one 401, as at expiry.
      if (!refusedOnce && isExecute(req)) {
        refusedOnce = true;
        return jsonAnswer(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer' });
      }
      const answer = await forward();
      if (!isToken(req)) return answer;
      return withJson(answer, (body) => {
        delete body.expires_in;
      });
    });
    const version = await d.execute([row('AAPL', '10')]);
    expect((await d.ended(version.id)).status).toBe('COMPLETE');
    expect(fake.requests.filter(isToken).length).toBe(2);
    expect(fake.requests.filter(isExecute).length).toBe(2);
  });

  it('expires_in as a numeric string and extra token fields are read too', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (!isToken(req)) return answer;
      return withJson(answer, (body) => {
        body.expires_in = String(body.expires_in);
        body.refresh_token = 'r';
        body.id_token = null;
      });
    });
    const strategy = await d.harness.desk.strategies.add({
      profileId: d.profileId,
      strategyId: FRESH,
    });
    expect(strategy.id).toBe(FRESH);
  });
});
