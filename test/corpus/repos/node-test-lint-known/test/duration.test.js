import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration } from '../src/duration.js';

describe('parseDuration', () => {
  it('parses hours', () => assert.equal(parseDuration('1h'), 3600));
  it('parses minutes', () => assert.equal(parseDuration('90m'), 5400));
  it('parses seconds', () => assert.equal(parseDuration('45 s'), 45));
  it('rejects an unknown unit', () => assert.throws(() => parseDuration('3 weeks')));
  it.skip('parses days', () => assert.equal(parseDuration('2d'), 172800));
});
