import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/views';
import {
  bodyOf,
  isExecute,
  jsonAnswer,
  withJson,
  type FakeAnswer,
  type FakeService,
} from '../../support/fake-service';
import { deleteShown } from '../../support/delete-version';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * Refusals in the shapes a production service may give them (the interface leaves "the shape
 * of the error body" open): each read for what it says, through a manager's whole flow on the
 * real desk, SQLite and tracker, and finished to COMPLETE where the manager can go on.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const SCHEDULED = DEMO_VERSION_IDS.dividendGrowthScheduled;

/** The execute refusals the sandbox gives, reshaped by `reshape` from its `{errors: {...}}`. */
function refusalsAs(
  fake: FakeService,
  reshape: (errors: { detail: string; version_id?: string; symbols?: string[] }) => FakeAnswer,
): void {
  fake.answer(async (req, forward) => {
    const answer = await forward();
    if (!isExecute(req) || answer.status !== 422) return answer;
    return reshape(bodyOf(answer).errors);
  });
}

async function executeRefused(
  desk: InteropDesk,
  rows = [row('JNJ', '10')],
  strategyId: string = DIVIDEND,
) {
  const draft = await openDraft(desk, strategyId);
  await desk.harness.desk.drafts.saveRows({ draftId: draft.id, rows });
  const error = await desk.harness.desk.versions
    .execute({ draftId: draft.id })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DeskError);
  return { error: error as DeskError, draftId: draft.id };
}

async function openDraft(desk: InteropDesk, strategyId: string) {
  const { profileId } = desk;
  if (!desk.harness.desk.store.strategies.get(profileId, strategyId))
    await desk.harness.desk.strategies.add({ profileId, strategyId });
  return desk.harness.desk.drafts.create({ profileId, strategyId, name: 'd', start: 'empty' });
}

describe('the unexecuted-version conflict in other shapes', () => {
  it.each([
    [
      '409 with the same body',
      (e: { detail: string; version_id?: string }) => jsonAnswer(409, { errors: e }),
    ],
    [
      '409 JSON:API with the id in meta',
      (e: { detail: string; version_id?: string }) =>
        jsonAnswer(409, {
          errors: [
            {
              status: '409',
              code: 'conflict',
              title: 'Conflict',
              detail: e.detail,
              meta: { version_id: e.version_id },
            },
          ],
        }),
    ],
    [
      '409 {error: "…", version_id}',
      (e: { detail: string; version_id?: string }) =>
        jsonAnswer(409, { error: e.detail, version_id: e.version_id }),
    ],
    [
      '422 {message, versionId}',
      (e: { detail: string; version_id?: string }) =>
        jsonAnswer(422, { message: e.detail, versionId: e.version_id }),
    ],
    [
      '409 problem details with a code only',
      (e: { detail: string; version_id?: string }) =>
        jsonAnswer(409, {
          type: 'about:blank',
          title: 'Conflict',
          code: 'unexecuted_version_exists',
          version_id: e.version_id,
        }),
    ],
  ])(
    '%s: offered for deletion; deleted, the draft executes to COMPLETE',
    async (_shape, reshape) => {
      d = await openInteropDesk();
      refusalsAs(d.fake, reshape);
      const { error, draftId } = await executeRefused(d);
      expect(error.kind).toBe('unexecuted-version');
      expect(error.details).toMatchObject({ versionId: SCHEDULED, ambiguous: false });
      expect(error.message).toContain(SCHEDULED);

      const ref = { profileId: d.profileId, strategyId: DIVIDEND, versionId: SCHEDULED };
      // Shown first, then deleted with the key naming what was shown, as the app does.
      await deleteShown(d.harness.desk, ref);
      const { version } = await d.harness.desk.versions.execute({ draftId });
      expect((await d.ended(version.id, DIVIDEND)).status).toBe('COMPLETE');
    },
  );
});

describe('unknown symbols in other shapes still name the rows to mark', () => {
  const names = (e: { symbols?: string[] }) => (e.symbols ?? []).join(', ');
  it.each([
    [
      'JSON:API, one error per symbol with a pointer',
      (e: { symbols?: string[] }) =>
        jsonAnswer(422, {
          errors: (e.symbols ?? []).map((s) => ({
            status: '422',
            title: 'Invalid symbol',
            detail: `${s} is not a known symbol`,
            source: { pointer: '/data/positions/0/symbol' },
          })),
        }),
    ],
    [
      'JSON:API pointing at the row without naming it',
      () =>
        jsonAnswer(422, {
          errors: [
            {
              status: '422',
              title: 'Unprocessable Entity',
              detail: 'is not a recognized symbol',
              source: { pointer: '/data/positions/0/symbol' },
            },
          ],
        }),
    ],
    [
      '{error: "…"}',
      (e: { symbols?: string[] }) => jsonAnswer(422, { error: `Unknown symbols: ${names(e)}` }),
    ],
    [
      '{message}',
      (e: { symbols?: string[] }) =>
        jsonAnswer(422, { message: `The following symbols are not recognized: ${names(e)}.` }),
    ],
    [
      'an HTML page',
      (e: { symbols?: string[] }) => ({
        status: 422,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from(
          `<!DOCTYPE html><html><head><title>422 Unprocessable Entity</title><style>p{}</style></head><body><h1>Unprocessable Entity</h1><p>Unknown symbols: ${names(e)}</p><hr><address>nginx</address></body></html>`,
        ),
      }),
    ],
  ])('%s', async (_shape, reshape) => {
    d = await openInteropDesk();
    refusalsAs(d.fake, reshape);
    const { error } = await executeRefused(d, [row('ZZZQ', '5'), row('AAPL', '10')], FRESH);
    expect(error.kind).toBe('unknown-symbols');
    expect(error.details).toMatchObject({ unknownSymbols: ['ZZZQ'] });
    expect(error.message).toBe('The service does not know these symbols: ZZZQ');
    // Corrected, the manager's next execution goes through to the end.
    const version = await d.execute([row('AAPL', '10')]);
    expect((await d.ended(version.id)).status).toBe('COMPLETE');
  });
});

describe('other refusals in their own words', () => {
  it('a JSON:API validation error reads as its field and detail, not as list indexes', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) =>
      isExecute(req)
        ? jsonAnswer(422, {
            errors: [
              {
                status: '422',
                title: 'Invalid weight',
                detail: 'must have at most 4 decimals',
                source: { pointer: '/data/positions/0/weight' },
              },
            ],
          })
        : forward(),
    );
    const { error } = await executeRefused(d, [row('AAPL', '10')], FRESH);
    expect(error.kind).toBe('validation');
    expect(error.message).toBe(
      'The service refused the request (status 422): data.positions[0].weight: must have at most 4 decimals',
    );
    expect(error.message).not.toMatch(/0\.status|0\.title/);
  });

  it('a decimal the service writes otherwise is named with its field, and nothing is stored', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (req.method !== 'GET' || !req.path.includes('include=positions')) return answer;
      return withJson(answer, (body) => {
        body.data.positions[0].quantity = '1,250.5';
      });
    });
    const error = await d.harness.desk.strategies
      .add({ profileId: d.profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).kind).toBe('bad-response');
    expect((error as DeskError).message).toBe(
      'The service answered in a form the app does not understand: data.positions[0].quantity is not a decimal number ("1,250.5" uses a comma).',
    );
    expect(
      d.harness.desk.store.strategies.get(d.profileId, DEMO_STRATEGY_IDS.coreEquity),
    ).toBeFalsy();
  });
});
