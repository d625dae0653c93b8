'use strict';
const test = require('tape');
const { range } = require('..');

test('counts up', (t) => {
  t.deepEqual(range(0, 3), [0, 1, 2]);
  t.end();
});

test('is empty when end is not past start', (t) => {
  t.deepEqual(range(3, 3), []);
  t.deepEqual(range(4, 3), []);
  t.end();
});

test('starts anywhere', (t) => {
  t.deepEqual(range(-2, 1), [-2, -1, 0]);
  t.end();
});
