const UNITS = { h: 3600, m: 60, s: 1 };

/** Seconds in a duration such as "1h", "90m" or "45 s". */
export function parseDuration(text) {
  const match = /^(\d+)\s*([hms])$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * UNITS[match[2]];
}
