import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../../renderer/src/bridge/event-stream';

describe('SseParser', () => {
  it('yields each event once, however the stream is cut into chunks', () => {
    const payloads = ['{"a":1}', '{"b":"x: y"}', '{"c":[1,2]}'];
    const stream = `: connected\n\n${payloads.map((p) => `event: desk\ndata: ${p}\n\n`).join(': keep-alive\n\n')}`;
    fc.assert(
      fc.property(fc.array(fc.nat(stream.length), { maxLength: 12 }), (cuts) => {
        const points = [...new Set([0, ...cuts, stream.length])].sort((a, b) => a - b);
        const parser = new SseParser();
        const out: string[] = [];
        for (let i = 1; i < points.length; i++) {
          out.push(...parser.push(stream.slice(points[i - 1], points[i])));
        }
        expect(out).toEqual(payloads);
      }),
    );
  });

  it('joins multi-line data and accepts CRLF', () => {
    const parser = new SseParser();
    expect(parser.push('data: one\r\ndata:two\r\n\r\n')).toEqual(['one\ntwo']);
  });
});
