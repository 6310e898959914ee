import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep } from '../../../electron/core/log/redact';
import { dispatchCall } from '../../../electron/shell/dispatch';
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
