// Stands in for a download: writes the unit table into the user's cache.
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const dir = join(homedir(), '.cache', 'corpus');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'units.json'), JSON.stringify({ h: 3600, m: 60, s: 1 }));
