import type { EvalProgress } from './run-eval.js';

// How a run shows itself while it runs. In a terminal: a live line per running task and a total
// with an ETA, redrawn in place, and a line for each task as it ends. Anywhere else: one JSON
// object a line, for a CI log or a script.

export interface ProgressPrinter extends EvalProgress {
  stop(): void;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function eta(started: number, done: number, total: number, now: number): string {
  if (done === 0) return 'ETA —';
  const left = ((now - started) / done) * (total - done);
  const s = Math.round(left / 1000);
  return `ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export function jsonProgress(
  write: (line: string) => void,
  total: number,
  clock = Date.now,
): ProgressPrinter {
  const started = clock();
  let done = 0;
  let resolved = 0;
  return {
    state: ({ id, state, attempt }) => write(JSON.stringify({ event: 'state', task: id, state, attempt })),
    done: (result, timing) => {
      done++;
      if (result.resolved) resolved++;
      write(
        JSON.stringify({
          event: 'done',
          task: result.id,
          resolved: result.resolved,
          promoted: result.promoted,
          gate: result.gate,
          finalState: result.finalState,
          wallMs: timing.wallMs,
          done,
          total,
          resolvedSoFar: resolved,
          etaMs: Math.round(((clock() - started) / done) * (total - done)),
        }),
      );
    },
    stop: () => {},
  };
}

/** Live lines on a terminal stream: the running tasks and the total are redrawn in place. */
export function terminalProgress(
  stream: { write(text: string): unknown; columns?: number },
  total: number,
  clock = Date.now,
): ProgressPrinter {
  const started = clock();
  const running = new Map<string, { state: string; attempt: number; since: number }>();
  let drawn = 0;
  let done = 0;
  let resolved = 0;
  const width = () => Math.max(40, (stream.columns ?? 100) - 1);
  const clear = () => {
    if (drawn) stream.write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    const now = clock();
    const lines = [...running].map(([id, r]) =>
      `  ${id}  ${r.state}${r.attempt ? `  attempt ${r.attempt}` : ''}  ${secs(now - r.since)}`.slice(
        0,
        width(),
      ),
    );
    lines.push(
      `  ${done}/${total} done, ${resolved} resolved, ${secs(now - started)}, ${eta(started, done, total, now)}`,
    );
    stream.write(`${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(() => {
    clear();
    draw();
  }, 1000);
  timer.unref();
  return {
    state: ({ id, state, attempt }) => {
      const was = running.get(id);
      running.set(id, { state, attempt, since: was?.since ?? clock() });
      clear();
      draw();
    },
    done: (result, timing) => {
      running.delete(result.id);
      done++;
      if (result.resolved) resolved++;
      clear();
      const mark = result.resolved ? '✓' : '✗';
      const gate = result.gate === 'false-promotion' ? '  FALSE PROMOTION' : '';
      stream.write(
        `${mark} ${result.id}: ${result.finalState}${result.reason ? ` (${result.reason})` : ''}, ${result.resolved ? 'resolved' : 'not resolved'}${gate}, ${secs(timing.wallMs)}\n`,
      );
      draw();
    },
    stop: () => {
      clearInterval(timer);
      clear();
    },
  };
}
