'use strict';
const t = require('tap');
const clamp = require('..');

t.test('keeps numbers inside the range', (t) => {
  t.equal(clamp(5, 0, 10), 5);
  t.end();
});

t.test('raises numbers below the range', (t) => {
  t.equal(clamp(-3, 0, 10), 0);
  t.end();
});

t.test('lowers numbers above the range', (t) => {
  t.equal(clamp(42, 0, 10), 10);
  t.end();
});
