import { describe, expect, it } from 'vitest';
import {
  APP_ERROR_KINDS,
  BRIDGE_ERROR_KINDS,
  DESK_ERROR_KINDS,
  DESK_ERROR_MESSAGES,
  DeskError,
  SERVICE_ERROR_KINDS,
  STORE_ERROR_KINDS,
  SYSTEM_ERROR_KINDS,
  deskError,
  isKind,
  kindInTodaysWords,
  serviceMayHaveActed,
} from '../../../shared/errors';
import { DESK_ERROR_DETAILS, deskErrorWire } from '../../../shared/errors/wire';
import { ALL_ERROR_SAMPLES, ERROR_SAMPLES } from '../../support/error-samples';

const sorted = (list: readonly string[]) => [...list].sort();

describe('one vocabulary of error kinds', () => {
  it('spells every kind in kebab-case, once, each in one group', () => {
    for (const kind of DESK_ERROR_KINDS) expect(kind).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(new Set(DESK_ERROR_KINDS).size).toBe(DESK_ERROR_KINDS.length);
    expect(sorted(DESK_ERROR_KINDS)).toEqual(
      sorted([
        ...APP_ERROR_KINDS,
        ...SERVICE_ERROR_KINDS,
        ...STORE_ERROR_KINDS,
        ...SYSTEM_ERROR_KINDS,
        ...BRIDGE_ERROR_KINDS,
      ]),
    );
  });

  it('gives every kind a details shape and a message, and no other kind', () => {
    expect(sorted(Object.keys(DESK_ERROR_DETAILS))).toEqual(sorted(DESK_ERROR_KINDS));
    expect(sorted(Object.keys(DESK_ERROR_MESSAGES))).toEqual(sorted(DESK_ERROR_KINDS));
    expect(sorted(Object.keys(ERROR_SAMPLES))).toEqual(sorted(DESK_ERROR_KINDS));
  });

  it('reads a kind written in the old snake_case spelling in today’s word', () => {
    expect(kindInTodaysWords('not_found')).toBe('not-found');
    expect(kindInTodaysWords('unexecuted_version')).toBe('unexecuted-version');
    expect(kindInTodaysWords('rate_limited')).toBe('rate-limited');
    expect(kindInTodaysWords('unknown-symbols')).toBe('unknown-symbols');
    // Not a kind the service client ever spelled so: left as written.
    expect(kindInTodaysWords('invalid_request')).toBe('invalid_request');
    expect(kindInTodaysWords('store_damaged')).toBe('store_damaged');
  });
});

describe('the wire schema', () => {
  it.each(ALL_ERROR_SAMPLES.map((e) => [e.kind, e] as const))(
    'takes %s with its own details, unchanged',
    (_kind, sample) => {
      expect(deskErrorWire.parse(sample)).toEqual(sample);
      // Without details too: an error made where no detail is known.
      const { details: _details, ...bare } = sample;
      expect(deskErrorWire.parse(bare)).toEqual(bare);
    },
  );

  it.each(ALL_ERROR_SAMPLES.map((e) => [e.kind, e] as const))(
    'refuses %s with a field its kind does not carry',
    (_kind, sample) => {
      const stray = { ...sample, details: { ...sample.details, unknownSymbols: ['X'], stray: 1 } };
      expect(deskErrorWire.safeParse(stray).success).toBe(false);
    },
  );

  it.each([
    [
      'symbols that are not text',
      {
        ...ERROR_SAMPLES['unknown-symbols'],
        details: { ambiguous: false, unknownSymbols: ['ZZZ', 3] },
      },
    ],
    ['no symbols', { ...ERROR_SAMPLES['unknown-symbols'], details: { ambiguous: false } }],
    [
      'no version id (null when unknown)',
      { ...ERROR_SAMPLES['unexecuted-version'], details: { ambiguous: false } },
    ],
    [
      'no missing scopes',
      { ...ERROR_SAMPLES.forbidden, details: { ambiguous: false, missingScope: 'x' } },
    ],
    ['ambiguous missing', { ...ERROR_SAMPLES.server, details: {} }],
    [
      'messages that are no list',
      { ...ERROR_SAMPLES['invalid-draft'], details: { messages: 'x' } },
    ],
    [
      'a reason of no case',
      { ...ERROR_SAMPLES['delete-not-confirmed'], details: { reason: 'maybe' } },
    ],
    ['a kind of no vocabulary', { kind: 'not_found', message: 'x' }],
    ['a status that is no integer', { ...ERROR_SAMPLES.server, status: 5.5 }],
    ['no message', { kind: 'internal' }],
  ])('refuses an error with %s', (_why, wire) => {
    expect(deskErrorWire.safeParse(wire).success).toBe(false);
  });
});

describe('DeskError and isKind', () => {
  it.each(ALL_ERROR_SAMPLES.map((e) => [e.kind, e] as const))(
    'rebuilds %s from its data and gives the same data back',
    (_kind, sample) => {
      expect(DeskError.fromWire(sample).toData()).toEqual(sample);
      expect(DeskError.fromUnknown(JSON.parse(JSON.stringify(sample)))?.toData()).toEqual(sample);
    },
  );

  it('tells a kind apart and types its details by it', () => {
    const error = DeskError.fromWire(ERROR_SAMPLES['unknown-symbols']);
    expect(isKind(error, 'unknown-symbols') && error.details?.unknownSymbols).toEqual([
      'FOO',
      'BAR',
    ]);
    expect(isKind(error, 'unexecuted-version')).toBe(false);
    expect(isKind(error, 'network', 'unknown-symbols')).toBe(true);
    expect(isKind(null, 'internal')).toBe(false);
    // Plain data of a kind (a view's error, a form's failure) too.
    expect(isKind({ kind: 'not-found', message: 'x' }, 'not-found')).toBe(true);
  });

  it('says when the service may have acted, from the details of a service kind only', () => {
    expect(serviceMayHaveActed(DeskError.fromWire(ERROR_SAMPLES.server))).toBe(true);
    expect(serviceMayHaveActed(DeskError.fromWire(ERROR_SAMPLES['unknown-symbols']))).toBe(false);
    expect(serviceMayHaveActed(deskError('internal'))).toBe(false);
    expect(serviceMayHaveActed(deskError('timeout'))).toBe(false);
  });

  it.each([
    null,
    'text',
    { kind: 'not_found', message: 'x' },
    { kind: 'internal' },
    { kind: 'internal', message: 'x', status: '500' },
    { kind: 'internal', message: 'x', details: ['a'] },
  ])('takes %j for no error of the app', (value) => {
    expect(DeskError.fromUnknown(value)).toBeNull();
  });
});
