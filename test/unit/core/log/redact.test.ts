import { describe, expect, it } from 'vitest';
import { ServiceError, redactError } from '../../../../electron/core/api/errors';
import { REDACTED, redactDeep } from '../../../../electron/core/log/redact';
import { dispatchCall } from '../../../../electron/transport/dispatch';
import { listChannels, type DeskHandlers } from '../../../../shared/contract';

describe('redactDeep (the log)', () => {
  it('replaces a secret in every string however deep, keys too, and leaves other values', () => {
    const secret = 'abc"def/ghi';
    const value = {
      message: `was ${secret}`,
      n: 3,
      ok: true,
      nothing: null,
      list: [[{ deep: `x${secret}y` }], JSON.stringify({ s: secret }), encodeURIComponent(secret)],
      [secret]: 'as a key',
    };
    expect(redactDeep(value, [secret, null, undefined, ''])).toEqual({
      message: `was ${REDACTED}`,
      n: 3,
      ok: true,
      nothing: null,
      list: [[{ deep: `x${REDACTED}y` }], `{"s":"${REDACTED}"}`, REDACTED],
      [REDACTED]: 'as a key',
    });
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(redactDeep('token abcdef', ['abc', 'abcdef'])).toBe(`token ${REDACTED}`);
  });

  it('returns the value itself when there is nothing to redact', () => {
    const value = { a: ['b'] };
    expect(redactDeep(value, [])).toBe(value);
  });
});

describe("redactError: a secret in the service's words", () => {
  const refused = (init: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}) =>
    new ServiceError({
      kind: 'validation',
      status: 422,
      message: 'The service refused the request (status 422): bad secret 1',
      serviceMessage: 'bad secret 1',
      details: { fields: { client_secret: ['1 is wrong'] }, code: 'x1', issues: ['a.1: no'] },
      ...init,
    });

  it('is taken out of every text the service sent, and of the sentence built from them', () => {
    const out = redactError(refused(), ['1']);
    expect(out.message).toBe(
      `The service refused the request (status 422): bad secret ${REDACTED}`,
    );
    expect(out.serviceMessage).toBe(`bad secret ${REDACTED}`);
    expect(out.details).toEqual({
      fields: { client_secret: [`${REDACTED} is wrong`] },
      code: `x${REDACTED}`,
      issues: [`a.${REDACTED}: no`],
    });
    // The kind and the status are the app's own: never touched.
    expect([out.kind, out.status]).toEqual(['validation', 422]);
  });

  it("leaves the app's own words alone when the service's words hold no secret", () => {
    const error = new ServiceError({
      kind: 'unexecuted-version',
      status: 422,
      message:
        'An unexecuted version (id 11111111-1111-4111-8111-111111111111) must be deleted first',
      serviceMessage: 'An unexecuted version exists',
      details: { versionId: '11111111-1111-4111-8111-111111111111', unknownSymbols: ['BRK.1'] },
    });
    expect(redactError(error, ['1'])).toBe(error);
  });

  it('drops a value the app acts on only when it is the secret itself', () => {
    const error = new ServiceError({
      kind: 'unknown-symbols',
      status: 422,
      message: 'The service does not know these symbols: ZZZ, S3CR3T',
      details: { unknownSymbols: ['ZZZ', 'S3CR3T'], versionId: 'S3CR3T' },
    });
    const out = redactError(error, ['S3CR3T']);
    expect(out.details).toEqual({ unknownSymbols: ['ZZZ'] });
    expect(out.message).toBe(`The service does not know these symbols: ZZZ, ${REDACTED}`);
  });
});

describe('dispatchCall passes answers on as the handlers gave them', () => {
  const entry = listChannels().find((c) => c.channel === 'versions.journal')!;
  const profileId = '3f0b8f7e-8c1a-4c55-9a55-0d1f3b1c2a10';
  const journalEntry = {
    id: '0e6f4c52-61f4-4a43-9f0e-4f3b1a2d5c77',
    strategyId: 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21',
    draftId: null,
    state: 'rejected',
    error: 'Unknown symbols: ZZZ1',
    attempts: 1,
    createdAt: '2026-11-23T01:00:00.000Z',
    updatedAt: '2026-11-23T01:00:00.000Z',
    versionId: null,
  };
  const handlers = {
    versions: {
      async journal() {
        return [journalEntry];
      },
    },
  } as unknown as DeskHandlers;

  it('ids, numbers and text of an answer cross unchanged', async () => {
    expect(await dispatchCall(handlers, entry, { profileId }, () => {})).toEqual({
      ok: true,
      value: [journalEntry],
    });
  });
});
