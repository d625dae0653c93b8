import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration } from '../src/duration.js';

test('formats milliseconds under a second as ms', () => {
  assert.equal(formatDuration(250), '250ms');
});

test('formats hours and minutes', () => {
  assert.equal(formatDuration(5_400_000), '1h 30m');
});

test('formats days', () => {
  assert.equal(formatDuration(90_061_000), '1d 1h 1m 1s');
});

test('rejects negative durations', () => {
  assert.throws(() => formatDuration(-1), RangeError);
});
