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
