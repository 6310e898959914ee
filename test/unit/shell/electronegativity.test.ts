import { describe, expect, it } from 'vitest';
import { findingsOf, suppressionsWithoutReason } from '../../../scripts/electronegativity';

describe('the Electronegativity gate', () => {
  it('counts every row of the report after the header, even a mangled one', () => {
    const header = 'issue, severity, confidence, filename, location, sample, description, url';
    expect(findingsOf(`${header}\n`)).toEqual([]);
    expect(findingsOf(`${header}\r\n\r\n`)).toEqual([]);
    const rows = findingsOf(
      `${header}\nPRELOAD_JS_CHECK,"MEDIUM","FIRM","main.ts","201:6",x,y,z\nt-src 'self'",z\n`,
    );
    expect(rows).toHaveLength(2);
  });

  it('requires a reason after every eng-disable', () => {
    const text = [
      'void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: parsed http(s) only',
      'new BrowserWindow({ preload }); // eng-disable PRELOAD_JS_CHECK',
      '/* eng-disable CSP_GLOBAL_CHECK : */',
    ].join('\n');
    expect(suppressionsWithoutReason('main.ts', text)).toEqual([
      'main.ts:2: eng-disable without a reason after a colon',
      'main.ts:3: eng-disable without a reason after a colon',
    ]);
  });
});
