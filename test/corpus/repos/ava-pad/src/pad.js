/** `text` padded on the left with `fill` to `length` characters. */
export function padStart(text, length, fill = ' ') {
  const missing = length - text.length;
  if (missing <= 0 || fill === '') return text;
  return fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing) + text;
}

/** `text` padded on the right with `fill` to `length` characters. */
export function padEnd(text, length, fill = ' ') {
  const missing = length - text.length;
  if (missing <= 0 || fill === '') return text;
  return text + fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing);
}
