import test from 'ava';
import { padStart } from '../src/pad.js';

test('pads with spaces', t => {
  t.is(padStart('7', 3), '  7');
});

test('pads with a longer fill', t => {
  t.is(padStart('7', 4, 'ab'), 'aba7');
});

test('leaves long text alone', t => {
  t.is(padStart('1234', 3), '1234');
});
