'use strict';
const { Stack } = require('../lib/stack');

describe('Stack', () => {
  it('gives back the last item first', () => {
    const s = new Stack();
    s.push(1);
    s.push(2);
    expect(s.pop()).toBe(2);
    expect(s.pop()).toBe(1);
  });

  it('shows the top without taking it', () => {
    const s = new Stack();
    s.push('a');
    expect(s.peek()).toBe('a');
    expect(s.pop()).toBe('a');
  });
});
