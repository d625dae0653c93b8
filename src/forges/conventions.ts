// What booty's names mean on every forge: the branches it pushes, and the label that asks for a plan.

/** Every branch booty pushes starts so: a pull request from one is booty's. */
export const BRANCH_PREFIX = 'booty/';

/** The label that asks for the plan to wait for a writer's approval before any code is written. */
export const PLAN_LABEL = 'booty:plan';

export const hasPlanLabel = (labels: readonly string[]) => labels.some((l) => l.toLowerCase() === PLAN_LABEL);
