import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, parseDuration } from '../src/duration.js';

test('parses hours and minutes, with or without spaces', () => {
  assert.equal(parseDuration('1h 30m'), 5_400_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
});

test('parses milliseconds as milliseconds, not minutes', () => {
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('1s 500ms'), 1_500);
});

test('rejects what is not a duration, naming the input', () => {
  for (const bad of ['', 'soon', '5 parsecs']) {
    assert.throws(() => parseDuration(bad), (err) => err instanceof RangeError && err.message.includes(JSON.stringify(bad)));
  }
});

test('round-trips with formatDuration for whole seconds', () => {
  for (const ms of [1_000, 61_000, 5_400_000, 90_061_000]) {
    assert.equal(parseDuration(formatDuration(ms)), ms);
  }
});
