// A GitHub Actions job log cut to what a person (or the model) needs: the step that failed. Actions
// writes each step as a `##[group]Run …` header (its command and shell, closed by `##[endgroup]`)
// followed by the step's output, `##[error]` lines included; every line carries a timestamp.

export const LOG_LINES = 60;
export const LOG_CHARS = 4000;

const STAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Where a step starts: its `Run …` header, or the runner's post-job steps. */
const startsStep = (line: string) =>
  line.startsWith('##[group]Run ') || /^Post (job cleanup\.|Run )/.test(line);

/** The failing step's title and its last lines, as the Actions page shows them; capped. */
export function failingStepLog(log: string): string {
  const lines = log
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.replace(STAMP, '').replace(ANSI, ''));
  const starts = lines.flatMap((l, i) => (startsStep(l) ? [i] : []));
  const bounds = [0, ...starts].map((from, i, all) => [from, all[i + 1] ?? lines.length] as const);
  const failing = bounds.find(([from, to]) => lines.slice(from, to).some((l) => l.startsWith('##[error]')));
  const [from, to] = failing ?? [0, lines.length];
  const header = failing && startsStep(lines[from]!) ? lines[from]! : null;
  let body = lines.slice(from, to);
  if (header?.startsWith('##[group]')) {
    // The header's group holds the command and the shell: the title says enough.
    const end = body.indexOf('##[endgroup]');
    body = body.slice(end >= 0 ? end + 1 : 1);
  } else if (header) {
    body = body.slice(1);
  }
  const shown = body.flatMap(rendered);
  while (shown.length && shown.at(-1)!.trim() === '') shown.pop();
  return capped(header ? rendered(header)[0]! : null, shown);
}

/** A line as the log viewer shows it: workflow commands in words, group markers gone. */
function rendered(line: string): string[] {
  // The runner marks the commands it runs itself with a bare `[command]`.
  if (line.startsWith('[command]')) return [line.slice('[command]'.length)];
  const command = /^##\[(\w+)\](.*)$/.exec(line);
  if (!command) return [line];
  const [, name, text] = command as unknown as [string, string, string];
  switch (name) {
    case 'error':
      return [`Error: ${text}`];
    case 'warning':
      return [`Warning: ${text}`];
    case 'notice':
      return [`Notice: ${text}`];
    case 'group':
    case 'command':
      return [text];
    default:
      return []; // endgroup, debug
  }
}

/** The title, then the last lines that fit in LOG_LINES and LOG_CHARS; `…` says some were cut. */
function capped(title: string | null, lines: string[]): string {
  const head = title === null ? [] : [title];
  let kept = lines
    .slice(-LOG_LINES)
    .map((l) => (l.length > LOG_CHARS / 2 ? `${l.slice(0, LOG_CHARS / 2)}…` : l));
  const size = (ls: string[]) => [...head, '…', ...ls].join('\n').length;
  while (kept.length > 1 && size(kept) > LOG_CHARS) kept = kept.slice(1);
  const cut = kept.length < lines.length ? ['…'] : [];
  return [...head, ...cut, ...kept].join('\n');
}
