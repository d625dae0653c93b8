import assert from 'node:assert/strict';
import { parseDuration } from '../src/duration.js';
import { loadUnits } from '../src/units.js';

describe('units', () => {
  it('reads the table the install step cached', () => assert.equal(loadUnits().h, 3600));
});

describe('parseDuration', () => {
  it('parses minutes', () => assert.equal(parseDuration('90m'), 5400));
});
