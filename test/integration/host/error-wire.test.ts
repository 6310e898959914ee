import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskHandlers } from '../../../shared/contract';
import { DeskError, type DeskErrorWire } from '../../../shared/errors';
import { startHost, type RunningHost } from '../../../electron/host';
import { listChannels } from '../../../shared/contract';
import { dispatchCall, unwrapCallResult } from '../../../electron/transport/dispatch';
import { createHttpBridge } from '../../../renderer/src/bridge/http-bridge';
import { ALL_ERROR_SAMPLES, ERROR_SAMPLES } from '../../support/error-samples';

/**
 * Every kind of error crosses with its details whole, by both ways to the renderer: the browser
 * host's HTTP API into the renderer's bridge, and the dispatcher's answer into the preload (as IPC
 * carries it, by structured clone). A detail not of its kind's shape does not cross.
 */

let dir: string;
let host: RunningHost;
let thrown: unknown = null;
const logged: string[] = [];
const handlers = {
  app: {
    status: async () => {
      throw thrown;
    },
  },
} as unknown as DeskHandlers;
const statusChannel = listChannels().find((c) => c.channel === 'app.status')!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-error-wire-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  host = await startHost({
    handlers,
    subscribe: () => () => undefined,
    staticDir: dir,
    log: (line) => logged.push(line),
  });
});
afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bridge = () =>
  createHttpBridge({ origin: `http://127.0.0.1:${host.port}`, token: host.token });

/** What the renderer gets when the desk throws `error`, over HTTP. */
async function overHttp(error: DeskError): Promise<DeskError> {
  thrown = error;
  const failure = await bridge()
    .app.status({})
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(failure).toBeInstanceOf(DeskError);
  return failure as DeskError;
}

/** The same through the dispatcher and the preload, as the desktop shell's IPC carries it. */
async function overIpc(error: DeskError, log: (line: string) => void): Promise<DeskError> {
  thrown = error;
  const result = structuredClone(await dispatchCall(handlers, statusChannel, {}, log));
  let failure: unknown = null;
  await Promise.resolve()
    .then(() => unwrapCallResult('app.status', result))
    .catch((e: unknown) => (failure = e));
  expect(failure).toBeInstanceOf(DeskError);
  return failure as DeskError;
}

describe('an error of each kind crosses to the renderer whole', () => {
  it.each(ALL_ERROR_SAMPLES.map((e) => [e.kind, e] as const))('%s', async (_kind, sample) => {
    expect((await overHttp(DeskError.fromWire(sample))).toData()).toEqual(sample);
    const lines: string[] = [];
    expect((await overIpc(DeskError.fromWire(sample), (l) => lines.push(l))).toData()).toEqual(
      sample,
    );
    expect(lines).toEqual([]);
  });
});

describe('a detail of the wrong shape does not cross', () => {
  const wrong = [
    {
      ...ERROR_SAMPLES['unknown-symbols'],
      details: { ambiguous: false, unknownSymbols: ['ZZZ', 3] },
    },
    { ...ERROR_SAMPLES.forbidden, details: { missingScope: 'X' } },
    { ...ERROR_SAMPLES['executed-before'], details: { versionId: 'v', unknownSymbols: ['X'] } },
  ] as unknown as DeskErrorWire[];

  it.each(wrong.map((e) => [e.kind, e] as const))(
    '%s keeps its kind and words, and the bug is logged with the call',
    async (kind, data) => {
      logged.length = 0;
      const http = await overHttp(DeskError.fromWire(data));
      expect([http.kind, http.message, http.status, http.details]).toEqual([
        kind,
        data.message,
        data.status,
        undefined,
      ]);
      expect(logged).toEqual([
        expect.stringMatching(new RegExp(`^app\\.status failed with ${kind} details outside`)),
      ]);
      const lines: string[] = [];
      const ipc = await overIpc(DeskError.fromWire(data), (l) => lines.push(l));
      expect(ipc.toData()).toEqual(http.toData());
      expect(lines).toHaveLength(1);
    },
  );

  it('is refused by the preload when it arrives all the same', () => {
    expect(() =>
      unwrapCallResult('app.status', {
        ok: false,
        error: { kind: 'unknown-symbols', message: 'x', details: { unknownSymbols: 'FOO' } },
      }),
    ).toThrow(/answered app\.status in an unexpected form/);
  });
});
