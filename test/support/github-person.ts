import { Octokit } from '@octokit/rest';
import type { GitHubSimulator } from '../../sim/github/github-simulator.js';

// A person on the simulated GitHub: an octokit with that user's own token, for what people do
// through the REST API (reviews, comments, reactions) exactly as booty's requests go.

// Refusals are what the tests look for; octokit need not print them.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export function personOn(sim: GitHubSimulator, login: string): Octokit {
  return new Octokit({ baseUrl: sim.url, auth: sim.tokenFor(login), request: { retries: 0 }, log: quiet });
}
