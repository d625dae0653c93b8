import { describe, expect, it } from 'vitest';
import { toFailure } from '../../src/engine/effect.js';
import { BootyError } from '../../src/errors.js';
import { type DomainEvent, parsePayload } from '../../src/events/catalogue.js';
import { toDomainEvent, toMachineEvent } from '../../src/machines/machine-events.js';
import { usage } from '../support/scripted-effects.js';

// A step that spent tokens and then failed keeps them: from the thrown error to the log and back.
describe('a failed step’s usage', () => {
  it('goes from the thrown error into the logged StepFailed and back to the machine', () => {
    const err = Object.assign(
      new BootyError('BOOTY_E_EFFECT_FAILED', { src: 'refine', reason: 'bad answer' }),
      {
        usage: usage(321),
      },
    );
    const failure = toFailure('refine', err, 5);
    expect(failure.usage).toEqual(usage(321));
    const logged = toDomainEvent({ type: 'xstate.error.actor.refine', error: failure }, 2);
    const { type, ...data } = logged!;
    const parsed = { type, ...parsePayload(type, data) } as DomainEvent;
    expect(parsed).toMatchObject({
      type: 'StepFailed',
      step: 'refine',
      attempt: 2,
      error: { usage: usage(321) },
    });
    expect(toMachineEvent(parsed)).toMatchObject({ error: { src: 'refine', usage: usage(321) } });
  });

  it('is left out when the error carries none, or something that is not a usage', () => {
    expect(toFailure('refine', new Error('boom'), 5)).not.toHaveProperty('usage');
    expect(toFailure('refine', { message: 'x', usage: { tokens: 3 } }, 5)).not.toHaveProperty('usage');
  });
});
