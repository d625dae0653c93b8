import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The unit table the install step cached under ~/.cache/corpus. */
export const loadUnits = () =>
  JSON.parse(readFileSync(join(homedir(), '.cache', 'corpus', 'units.json'), 'utf8'));
