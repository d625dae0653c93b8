import type { Writable } from 'node:stream';

// pino's JSON lines as a person reads them in a terminal: time, level, message, then the fields.
// A process manager or a pipe gets the JSON unchanged (see log.ts).

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 23);
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([k, v]) => !OMIT.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`);
  return [`${time} ${level} ${entry.msg ?? ''}`, ...fields].join(' ');
}

export function prettyStream(out: Writable): { write(line: string): void } {
  return { write: (chunk: string) => void out.write(`${prettyLine(chunk.trimEnd())}\n`) };
}
