// This machine's Python has pytest plugins of its own installed (hypothesis, pytest-benchmark),
// which every pytest run loads: half of a small suite's 1.2 s. No repository of the corpus or the
// eval's built-in set uses them, so the suites that run pytest most pass
// PYTEST_DISABLE_PLUGIN_AUTOLOAD into the sandbox, as an operator would with BOOTY_SANDBOX_ENV.
// Plugins a repository names itself (`-p`, conftest.py) still load.

/** For createTestEffects and runHiddenTests: their `passEnv`. */
export const machinePluginsOff = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } as const;

/** For a `booty` command's environment: the same, through the operator's setting. */
export const machinePluginsOffEnv = {
  BOOTY_SANDBOX_ENV: 'PYTEST_DISABLE_PLUGIN_AUTOLOAD',
  ...machinePluginsOff,
} as const;
