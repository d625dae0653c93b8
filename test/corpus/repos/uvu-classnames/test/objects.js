import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import classes from '../src/index.js';

const objects = suite('objects');

objects('keeps keys with truthy values', () => {
  assert.is(classes({ a: true, b: false, c: 1 }), 'a c');
});

objects('mixes objects and strings', () => {
  assert.is(classes('a', { b: true }), 'a b');
});

objects('flattens arrays', () => {
  assert.is(classes(['a', ['b', { c: true }]]), 'a b c');
});

objects.run();
