// A GitLab job's trace cut to what a person (or the model) needs: the section that failed. The
// runner wraps each part of a job in `section_start:<time>:<name>` … `section_end:<time>:<name>`
// markers (with ANSI colours around them); the script's section is where a failure shows, and the
// trace ends with `ERROR: Job failed`.

export const TRACE_LINES = 60;
export const TRACE_CHARS = 4000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const START = /section_start:\d+:([\w.-]+)(\[[^\]]*\])?\r?/;
const END = /section_end:\d+:([\w.-]+)\r?/;

export function failingSection(trace: string): string {
  const lines = trace.split(/\r?\n/).map((l) => l.replace(ANSI, ''));
  // The last section opened before the failure: the script that failed, not the cleanup after it.
  let from = 0;
  let title: string | null = null;
  const failedAt = lines.findIndex((l) => /^ERROR: Job failed/.test(l));
  const upto = failedAt >= 0 ? failedAt : lines.length;
  for (let i = 0; i < upto; i++) {
    const start = START.exec(lines[i]!);
    if (start && !/cleanup|after_script|upload/i.test(start[1]!)) {
      from = i;
      title = lines[i]!.replace(START, '').trim() || start[1]!;
    }
  }
  const body = lines
    .slice(title === null ? 0 : from + 1, failedAt >= 0 ? failedAt + 1 : lines.length)
    .filter((l) => !START.test(l))
    .map((l) => l.replace(END, ''))
    .filter((l, i, all) => l.trim() !== '' || i < all.length - 1);
  let kept = body.slice(-TRACE_LINES);
  const size = (ls: string[]) => [title ?? '', '…', ...ls].join('\n').length;
  while (kept.length > 1 && size(kept) > TRACE_CHARS) kept = kept.slice(1);
  return [...(title ? [title] : []), ...(kept.length < body.length ? ['…'] : []), ...kept].join('\n');
}
