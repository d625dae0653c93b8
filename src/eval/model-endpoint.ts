import { startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { BootyError } from '../errors.js';
import { type ModelEndpoint, startPassThrough, startReplay } from './cassette.js';
import { type ScriptedTask, scriptedResponder } from './scripted-models.js';

// Where booty's ANTHROPIC_BASE_URL points in an eval run, by model mode. Every mode is a local
// endpoint, so booty's own client and wire path are the same in all of them.

export type ModelMode =
  | { kind: 'oracle' }
  | { kind: 'null' }
  /** The real API (ANTHROPIC_BASE_URL, else Anthropic's), with ANTHROPIC_API_KEY. */
  | { kind: 'model' }
  /** The real API, every exchange written to the cassette in `dir`. */
  | { kind: 'record'; dir: string }
  /** The cassette in `dir` alone. */
  | { kind: 'replay'; dir: string };

export const PUBLIC_API = 'https://api.anthropic.com';

export async function startModelEndpoint(
  mode: ModelMode,
  input: { tasks: ScriptedTask[]; env: NodeJS.ProcessEnv },
): Promise<ModelEndpoint> {
  if (mode.kind === 'oracle' || mode.kind === 'null') {
    const sim = await startAnthropicSimulator({
      responder: scriptedResponder(input.tasks),
      // No simulated prompt cache: tasks share the system prompt, and which task wrote it first
      // would change the others' token counts from run to run.
      minCacheTokens: Number.MAX_SAFE_INTEGER,
    });
    return { url: sim.url, exchanges: () => sim.messages().length, misses: () => [], close: sim.close };
  }
  if (mode.kind === 'replay') return startReplay(mode.dir);
  const apiKey = input.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey)
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'eval',
      reason: `--${mode.kind} uses the real API and needs ANTHROPIC_API_KEY; without a key, replay a recorded run (--replay DIR) or check the harness (--oracle, --null)`,
    });
  return startPassThrough({
    upstream: input.env.ANTHROPIC_BASE_URL?.trim() || PUBLIC_API,
    apiKey,
    cassette: mode.kind === 'record' ? mode.dir : undefined,
  });
}
