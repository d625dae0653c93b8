import type { SandboxMode } from './bwrap.js';

// The operator owns the sandbox. BOOTY_SANDBOX sets the mode for every job; a repository's
// booty.yml may ask for a stricter one, never a weaker one: `sandbox: off` in a repository is
// ignored, because the code it would free is the code the sandbox exists to hold.

const rank: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

export const strictest = (operator: SandboxMode, repository: SandboxMode | null | undefined): SandboxMode =>
  repository && rank[repository] > rank[operator] ? repository : operator;

/**
 * The mode a booty runs tests under, and who chose it: the operator (BOOTY_SANDBOX) or, with that
 * unset, the command's default (serve: required; run and demo: auto). A notice that the tests ran
 * without bubblewrap says which, and never names a setting nobody made.
 */
export interface SandboxChoice {
  mode: SandboxMode;
  by: 'operator' | 'default';
}

export const sandboxChoice = (setting: SandboxMode | undefined, fallback: SandboxMode): SandboxChoice =>
  setting ? { mode: setting, by: 'operator' } : { mode: fallback, by: 'default' };
