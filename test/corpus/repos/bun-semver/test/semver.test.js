import { describe, expect, test } from 'bun:test';
import { compare } from '../src/semver.js';

describe('compare', () => {
  test('orders by major first', () => {
    expect(compare('2.0.0', '1.9.9')).toBe(1);
  });

  test('orders by patch last', () => {
    expect(compare('1.2.3', '1.2.4')).toBe(-1);
  });

  test('finds equal versions equal', () => {
    expect(compare('1.2.3', '1.2.3')).toBe(0);
  });
});
