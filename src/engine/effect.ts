import { fromPromise } from 'xstate';
import { BootyError } from '../errors.js';
import {
  type EffectFailure,
  type EffectName,
  type EffectOutput,
  effectOutputs,
  Usage,
} from '../events/effect-results.js';
import type { EffectImpl, EffectImpls } from '../machines/effect-contract.js';
import type { EffectInput } from '../machines/job-context.js';

// Turns the plain async functions of the effect contract into the actors the machine invokes. One
// helper, invokeEffect, wraps every effect, and it is what keeps the log ahead of the job: it waits
// until the event that started it is written (`ready`), waits out a retry deadline, runs the
// effect, stamps the finish time, and validates the result against its schema (or turns any thrown
// error into a plain JSON failure, since an Error would serialise to {} and a replay would decide
// differently). The machine takes the outcome, and the runner writes it with the state it led to.

export type EffectOutcome =
  | { ok: true; src: EffectName; output: EffectOutput<EffectName> }
  | { ok: false; src: EffectName; failure: EffectFailure };

export interface EffectOptions {
  /**
   * Resolves once the event that started the effect is written; false when it never will be (the
   * job stopped), and the effect must not act.
   */
  ready: (signal: AbortSignal) => Promise<boolean>;
  clock?: () => number;
  /** Called with every finished effect, for metrics. */
  observe?: (src: EffectName, durationMs: number, ok: boolean) => void;
}

export function invokeEffect<K extends EffectName>(src: K, impl: EffectImpl<K>, options: EffectOptions) {
  const clock = options.clock ?? Date.now;
  return fromPromise<EffectOutput<K>, EffectInput>(async ({ input, signal }) => {
    // What started it was not written: the job has stopped, so this does nothing and settles never.
    if (!(await options.ready(signal))) return new Promise<never>(() => {});
    if (input.notBefore !== null) await sleepUntil(input.notBefore, signal, clock);
    const outcome = await settle(src, impl, input, signal, clock, options.observe);
    if (outcome.ok) return outcome.output as EffectOutput<K>;
    throw outcome.failure;
  });
}

async function settle<K extends EffectName>(
  src: K,
  impl: EffectImpl<K>,
  input: EffectInput,
  signal: AbortSignal,
  clock: () => number,
  observe: EffectOptions['observe'],
): Promise<EffectOutcome> {
  const started = clock();
  try {
    const result = await impl(input, { signal });
    const parsed = effectOutputs[src].safeParse({ ...result, at: clock() });
    if (!parsed.success) {
      throw new BootyError('BOOTY_E_EFFECT_OUTPUT', { src, reason: parsed.error.message });
    }
    observe?.(src, clock() - started, true);
    return { ok: true, src, output: parsed.data as EffectOutput<EffectName> };
  } catch (err) {
    observe?.(src, clock() - started, false);
    return { ok: false, src, failure: toFailure(src, err, clock()) };
  }
}

/** Every effect of the contract as the actor the machine invokes, each through invokeEffect. */
export function effectActors(impls: Partial<EffectImpls>, options: EffectOptions) {
  return Object.fromEntries(
    (Object.entries(impls) as [EffectName, EffectImpl<EffectName>][]).map(([src, impl]) => [
      src,
      invokeEffect(src, impl, options),
    ]),
  );
}

export function toFailure(src: string, err: unknown, at: number): EffectFailure {
  // An error may carry the tokens its step spent before failing (a `usage` property): they are
  // kept, so the budget counts them.
  const usage = Usage.safeParse((err as { usage?: unknown } | null)?.usage);
  const spent = usage.success ? { usage: usage.data } : {};
  if (err instanceof BootyError) {
    const failure = { src, code: err.code, message: err.message, retryable: err.retryable, at, ...spent };
    return err.retryAfterMs === undefined ? failure : { ...failure, retryAfterMs: err.retryAfterMs };
  }
  const e = (err ?? {}) as { code?: unknown; message?: unknown; retryable?: unknown };
  return {
    src,
    code: typeof e.code === 'string' && e.code.startsWith('BOOTY_E_') ? e.code : 'BOOTY_E_EFFECT_FAILED',
    message: typeof e.message === 'string' ? e.message : String(err),
    retryable: e.retryable === true,
    at,
    ...spent,
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
