'use strict';
const test = require('tape');
const { words, count } = require('../lib/words');

test('splits on spaces and punctuation', (t) => {
  t.deepEqual(words('the quick, brown fox'), ['the', 'quick', 'brown', 'fox']);
  t.end();
});

test('keeps apostrophes', (t) => {
  t.deepEqual(words("don't stop"), ["don't", 'stop']);
  t.end();
});

test('counts words', (t) => {
  t.equal(count('one two three'), 3);
  t.equal(count(''), 0);
  t.end();
});
