'use strict';
const { formatCents } = require('../lib/money');

describe('formatCents', () => {
  it('formats dollars and cents', () => {
    expect(formatCents(1234)).toBe('$12.34');
  });

  it('pads single-digit cents', () => {
    expect(formatCents(105)).toBe('$1.05');
  });

  describe('negative amounts', () => {
    it('puts the sign first', () => {
      expect(formatCents(-250)).toBe('-$2.50');
    });
  });
});
