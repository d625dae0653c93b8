import test from 'ava';
import { padEnd } from '../src/pad.js';

test('pads with spaces', t => {
  t.is(padEnd('7', 3), '7  ');
});

test('pads with zeros', t => {
  t.is(padEnd('7', 3, '0'), '700');
});
