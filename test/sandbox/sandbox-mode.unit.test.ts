import { describe, expect, it } from 'vitest';
import { strictest } from '../../src/sandbox/sandbox-mode.js';

describe('the sandbox mode', () => {
  it.each([
    ['required', null, 'required'],
    ['required', 'off', 'required'],
    ['auto', 'off', 'auto'],
    ['auto', 'required', 'required'],
    ['off', null, 'off'],
    ['off', 'auto', 'auto'],
    ['off', 'required', 'required'],
  ] as const)('operator %s, repository %s: %s', (operator, repository, mode) => {
    expect(strictest(operator, repository)).toBe(mode);
  });
});
