// Stands in for a download: writes the unit table into the user's cache.
const { mkdirSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

const dir = join(homedir(), '.cache', 'corpus');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'units.json'), JSON.stringify({ h: 3600, m: 60, s: 1 }));
