import { describe, expect, it } from 'vitest';
import { jobViewBase, jobViewUrl } from '../../src/views/job-link.js';

// The comment links to the job view only where `serve` serves it, at the address people reach.

describe('the job view link', () => {
  it.each([
    [
      'a public address, the view on',
      { BOOTY_PUBLIC_URL: 'https://b.example.com', BOOTY_DASHBOARD: 'on', HOST: '0.0.0.0' },
      'https://b.example.com',
    ],
    [
      'a public address, the view left to serve on loopback',
      { BOOTY_PUBLIC_URL: 'https://b.example.com', HOST: '127.0.0.1' },
      'https://b.example.com',
    ],
    [
      'a public address, the view off',
      { BOOTY_PUBLIC_URL: 'https://b.example.com', BOOTY_DASHBOARD: 'off', HOST: '127.0.0.1' },
      null,
    ],
    [
      'a public address, no view on an open interface',
      { BOOTY_PUBLIC_URL: 'https://b.example.com', HOST: '0.0.0.0' },
      null,
    ],
    ['no public address', { BOOTY_DASHBOARD: 'on', HOST: '127.0.0.1' }, null],
  ] as const)('%s', (_, env, base) => expect(jobViewBase(env)).toBe(base));

  it('keeps the address’s own path and escapes the job id', () => {
    expect(jobViewUrl('https://ops.example.com/booty/', 'mwt-1')).toBe(
      'https://ops.example.com/booty/jobs/mwt-1/view',
    );
    expect(jobViewUrl('https://b.example.com', 'a/b')).toBe('https://b.example.com/jobs/a%2Fb/view');
  });
});
