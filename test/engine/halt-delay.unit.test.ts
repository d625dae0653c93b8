import { describe, expect, it } from 'vitest';
import { HALT_DELAY_CAP_SECONDS, haltDelaySeconds } from '../../src/engine/halt-delay.js';

describe('the wait after a halt', () => {
  it.each([
    ['the first halt', 1, 60],
    ['the second in a row', 2, 120],
    ['the third in a row', 3, 240],
    ['the ninth in a row', 9, 15_360],
    ['the tenth in a row, past six hours', 10, HALT_DELAY_CAP_SECONDS],
    ['a hundredth in a row', 100, HALT_DELAY_CAP_SECONDS],
  ])(
    'given 30 s leases and %s (halt %i), then the job waits %i s before any worker runs it',
    (_, halts, seconds) => {
      expect(haltDelaySeconds(30, halts)).toBe(seconds);
    },
  );
});
