import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep } from '../../../electron/core/log/redact';
import { dispatchCall } from '../../../electron/transport/dispatch';
import { listChannels, type DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';

describe('redactDeep', () => {
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

describe('dispatchCall redacts the errors it answers', () => {
  const entry = listChannels().find((c) => c.channel === 'app.status')!;
  const leaking = {
    app: {
      async status() {
        throw DeskError.fromWire({
          kind: 'bad-request',
          message: 'rejected hunter22',
          serviceMessage: 'secret hunter22',
          details: { fields: { client_secret: ['hunter22'] }, nested: [['tok-9']] },
        });
      },
    },
  } as unknown as DeskHandlers;

  it('against the secrets the desk knows, in message, serviceMessage and details', async () => {
    const result = await dispatchCall(
      leaking,
      entry,
      {},
      () => {},
      async () => ['hunter22', 'tok-9'],
    );
    expect(JSON.stringify(result)).not.toMatch(/hunter22|tok-9/);
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'bad-request',
        message: `rejected ${REDACTED}`,
        serviceMessage: `secret ${REDACTED}`,
        details: { fields: { client_secret: [REDACTED] }, nested: [[REDACTED]] },
      },
    });
  });
});

describe('dispatchCall redacts the answers it returns', () => {
  const entry = listChannels().find((c) => c.channel === 'versions.journal')!;
  const profileId = '3f0b8f7e-8c1a-4c55-9a55-0d1f3b1c2a10';
  const strategyId = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
  const journalEntry = (error: string) => ({
    id: '0e6f4c52-61f4-4a43-9f0e-4f3b1a2d5c77',
    profileId,
    strategyId,
    draftId: null,
    state: 'rejected',
    error,
    attempts: 1,
    createdAt: '2026-11-23T01:00:00.000Z',
    updatedAt: '2026-11-23T01:00:00.000Z',
    versionId: null,
  });
  const answering = (error: string) =>
    ({
      versions: {
        async journal() {
          return [journalEntry(error)];
        },
      },
    }) as unknown as DeskHandlers;

  it('a journal entry whose error echoes a live token crosses without it', async () => {
    const result = await dispatchCall(
      answering('The service refused the request (status 422): bad token tok-9'),
      entry,
      { profileId },
      () => {},
      async () => ['hunter22', 'tok-9'],
    );
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('tok-9');
    expect(JSON.stringify(result)).toContain(REDACTED);
  });

  it('an answer with no secret in it is passed on as it is', async () => {
    const result = await dispatchCall(
      answering('Unknown symbols: ZZZ'),
      entry,
      { profileId },
      () => {},
      async () => ['hunter22', 'tok-9'],
    );
    expect(result).toMatchObject({ ok: true, value: [{ error: 'Unknown symbols: ZZZ' }] });
  });
});
