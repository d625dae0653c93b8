const { readFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

/** The unit table the install step cached under ~/.cache/corpus. */
const loadUnits = () => JSON.parse(readFileSync(join(homedir(), '.cache', 'corpus', 'units.json'), 'utf8'));

module.exports = { loadUnits };
