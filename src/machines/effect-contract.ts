import type { EffectName, EffectOutput } from '../events/effect-results.js';
import type { EffectInput } from './job-context.js';

// What an effect is, for the code that implements one: a plain async function of the job's view
// that resolves with its result (the wrapper in engine/effect.ts stamps the time, validates it and
// logs it). Effects depend on this contract, never on the runtime that runs them.

export type EffectImpl<K extends EffectName> = (
  input: EffectInput,
  ctx: { signal: AbortSignal },
) => Promise<Omit<EffectOutput<K>, 'at'>>;

export type EffectImpls = { [K in EffectName]: EffectImpl<K> };
