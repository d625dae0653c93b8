import { loadUnits } from './units.js';

export function parseDuration(text) {
  const match = /^(\d+)\s*([hms])$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * loadUnits()[match[2]];
}
