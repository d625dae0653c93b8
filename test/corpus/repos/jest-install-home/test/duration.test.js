const { parseDuration } = require('../src/duration.js');
const { loadUnits } = require('../src/units.js');

describe('units', () => {
  it('reads the table the install step cached', () => expect(loadUnits().h).toBe(3600));
});

describe('parseDuration', () => {
  it('parses minutes', () => expect(parseDuration('90m')).toBe(5400));
});
