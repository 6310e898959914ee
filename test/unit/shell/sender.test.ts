import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from '../../../electron/transport/app-identity';
import { senderProblem, type SenderFacts } from '../../../electron/shell/sender';

const ours: SenderFacts = {
  senderId: 7,
  trustedWebContentsIds: [7],
  hasFrame: true,
  isMainFrame: true,
  frameUrl: APP_ENTRY_URL,
};

describe('the IPC sender check', () => {
  it('accepts the main frame of our window on our origin', () => {
    expect(senderProblem(ours)).toBeNull();
    expect(senderProblem({ ...ours, frameUrl: 'app://desk/#/strategies/1' })).toBeNull();
  });

  it.each<[string, Partial<SenderFacts>, RegExp]>([
    ['another webContents', { senderId: 8 }, /not one of our windows/],
    ['no window at all', { trustedWebContentsIds: [] }, /not one of our windows/],
    ['a destroyed frame', { hasFrame: false, frameUrl: '' }, /frame is gone/],
    ['an iframe', { isMainFrame: false }, /not the main frame/],
    [
      'a web page',
      { frameUrl: 'https://evil.example/' },
      /foreign origin \(https:\/\/evil.example\)/,
    ],
    ['a local file', { frameUrl: 'file:///tmp/x.html' }, /foreign origin/],
    ['another app host', { frameUrl: 'app://other/index.html' }, /foreign origin/],
    ['about:blank', { frameUrl: 'about:blank' }, /foreign origin/],
  ])('refuses %s', (_name, change, reason) => {
    expect(senderProblem({ ...ours, ...change })).toMatch(reason);
  });
});
