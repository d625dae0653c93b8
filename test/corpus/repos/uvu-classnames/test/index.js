import { test } from 'uvu';
import * as assert from 'uvu/assert';
import classes from '../src/index.js';

test('exports a function', () => {
  assert.type(classes, 'function');
});

test('joins strings', () => {
  assert.is(classes('a', 'b'), 'a b');
});

test('skips falsy values', () => {
  assert.is(classes('a', null, undefined, false, 0, '', 'b'), 'a b');
});

test('keeps numbers', () => {
  assert.is(classes(1, 'a'), '1 a');
});

test('returns an empty string for nothing', () => {
  assert.is(classes(), '');
});

test.run();
