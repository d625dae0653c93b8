import { fromPromise } from 'xstate';
import { BootyError } from '../errors.js';
import {
  type EffectFailure,
  type EffectName,
  type EffectOutput,
  effectOutputs,
} from '../events/effect-results.js';
import type { EffectImpl, EffectImpls } from '../machines/effect-contract.js';
import type { EffectInput } from '../machines/job-context.js';

// Turns a plain async function into an effect the machine can invoke. The wrapper is what makes
// effects safe to log: it waits out a retry deadline, stamps the finish time, validates the result
// against its schema, and turns any thrown error into a plain JSON failure (an Error would
// serialise to {} and the replay would decide differently from the live run).

export type { EffectImpl, EffectImpls } from '../machines/effect-contract.js';

export interface EffectOptions {
  clock?: () => number;
  /** Called with every finished effect, for metrics. */
  observe?: (src: EffectName, durationMs: number, ok: boolean) => void;
}

export function toActors(impls: Partial<EffectImpls>, options: EffectOptions = {}) {
  const clock = options.clock ?? Date.now;
  const actors: Record<string, ReturnType<typeof fromPromise<any, EffectInput>>> = {};
  for (const [src, impl] of Object.entries(impls) as [EffectName, EffectImpl<EffectName>][]) {
    actors[src] = fromPromise<EffectOutput<typeof src>, EffectInput>(async ({ input, signal }) => {
      if (input.notBefore !== null) await sleepUntil(input.notBefore, signal, clock);
      const started = clock();
      try {
        const result = await impl(input, { signal });
        const parsed = effectOutputs[src].safeParse({ ...result, at: clock() });
        if (!parsed.success) {
          throw new BootyError('BOOTY_E_EFFECT_OUTPUT', { src, reason: parsed.error.message });
        }
        options.observe?.(src, clock() - started, true);
        return parsed.data;
      } catch (err) {
        options.observe?.(src, clock() - started, false);
        throw toFailure(src, err, clock());
      }
    });
  }
  return actors;
}

export function toFailure(src: string, err: unknown, at: number): EffectFailure {
  if (err instanceof BootyError)
    return { src, code: err.code, message: err.message, retryable: err.retryable, at };
  const e = (err ?? {}) as { code?: unknown; message?: unknown; retryable?: unknown };
  return {
    src,
    code: typeof e.code === 'string' && e.code.startsWith('BOOTY_E_') ? e.code : 'BOOTY_E_EFFECT_FAILED',
    message: typeof e.message === 'string' ? e.message : String(err),
    retryable: e.retryable === true,
    at,
  };
}

/** Resolves at an absolute time, or as soon as the effect is stopped. */
export function sleepUntil(
  deadline: number,
  signal: AbortSignal,
  clock: () => number = Date.now,
): Promise<void> {
  const wait = deadline - clock();
  if (wait <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, wait);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
