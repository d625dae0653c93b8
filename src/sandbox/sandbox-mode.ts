import type { SandboxMode } from './bwrap.js';

// The operator owns the sandbox. BOOTY_SANDBOX sets the mode for every job; a repository's
// booty.yml may ask for a stricter one, never a weaker one: `sandbox: off` in a repository is
// ignored, because the code it would free is the code the sandbox exists to hold.

const rank: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

export const strictest = (operator: SandboxMode, repository: SandboxMode | null | undefined): SandboxMode =>
  repository && rank[repository] > rank[operator] ? repository : operator;
