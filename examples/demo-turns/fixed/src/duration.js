const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/** Formats milliseconds as a short human duration: 5_400_000 -> "1h 30m". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`not a duration: ${ms}`);
  if (ms < 1000) return `${ms}ms`;
  const parts = [];
  let rest = ms;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}

const SIZES = { ms: 1, ...Object.fromEntries(UNITS) };
// "ms" comes first so that "250ms" is not read as 250 minutes and a stray "s".
const PART = /(\d+)\s*(ms|d|h|m|s)/y;

/** Parses a human duration back into milliseconds: "1h 30m" -> 5_400_000. */
export function parseDuration(text) {
  const input = String(text).trim();
  if (input === '') throw new RangeError(`not a duration: ${JSON.stringify(text)}`);
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < input.length) {
    const match = PART.exec(input);
    if (!match) throw new RangeError(`not a duration: ${JSON.stringify(text)}`);
    total += Number(match[1]) * SIZES[match[2]];
    while (input[PART.lastIndex] === ' ') PART.lastIndex += 1;
  }
  return total;
}
