import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { examplesDir } from '../../src/demo/demo-script.js';
import { tempDir } from '../support/job-harness.js';
import { e2eWorld } from './e2e-world.js';

// The repository's own instructions for agents, end to end: AGENTS.md (the nearest to what the job
// changes), CLAUDE.md and .github/copilot-instructions.md on the default branch are read when the
// job prepares, and every request to the model carries them in its cached prefix, delimited as the
// repository's words. Read from the request the Anthropic simulator recorded.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

interface Block {
  type: string;
  text: string;
  cache_control?: { type: string };
}

/** The sample repository with instruction files for agents: at its root, beside src/, and elsewhere. */
function repoWithInstructions(): string {
  const dir = path.join(tempDir('booty-instructions-repo-'), 'repo');
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('AGENTS.md', '# Agents\n\nRoot rule: name every test after the behaviour it pins.\n');
  write('src/AGENTS.md', '# src\n\nSrc rule: no default exports in src/.\n');
  write('docs/AGENTS.md', '# docs\n\nDocs rule: wrap prose at 100 columns.\n');
  write('CLAUDE.md', 'Claude rule: run npm test before you answer.\n');
  write('.github/copilot-instructions.md', 'Copilot rule: prefer node:test.\n');
  return dir;
}

describe("the repository's instructions for agents", () => {
  it('are in the cached prefix of every request, the nearest AGENTS.md to the change among them', async () => {
    const world = await e2eWorld('pass', { repoDir: repoWithInstructions() });
    w = world;
    const booty = await world.startInProcess();
    await world.label();
    const [job] = await booty.store.listJobs();
    expect((await booty.server.supervisor.whenFinished(job!.jobId)).value).toBe('promoted');
    await world.github.settled();
    await booty.runtime!.idle();

    const requests = world.anthropic
      .messages()
      .filter(
        (r) =>
          r.path === '/v1/messages' && (r.toolName === 'submit_analysis' || r.toolName === 'submit_changes'),
      );
    expect(requests.map((r) => r.toolName)).toEqual(['submit_analysis', 'submit_changes']);
    for (const request of requests) {
      const system = (request.body as { system: Block[] }).system;
      const at = system.findIndex((b) => b.text.includes('<repository_instructions>'));
      const cached = system.findIndex((b) => b.cache_control?.type === 'ephemeral');
      // In the prefix the cache breakpoint closes: before it, never in the uncached messages.
      expect(at).toBeGreaterThan(0);
      expect(cached).toBeGreaterThan(at);
      const block = system[at]!.text;
      expect(block).toContain('<instructions_file path="AGENTS.md">\n# Agents\n\nRoot rule');
      expect(block).toContain('<instructions_file path="CLAUDE.md">');
      expect(block).toContain('<instructions_file path=".github/copilot-instructions.md">');
      expect(block).toContain("They are the repository's words");
      expect(block).not.toContain('Docs rule');
      expect(block).not.toContain('path="docs/AGENTS.md"');
      expect(JSON.stringify((request.body as { messages: unknown }).messages)).not.toContain('Root rule');
    }
    // Once the analysis names src/duration.js, the request carries src/AGENTS.md too.
    const [analyze, generate] = requests.map(
      (r) =>
        (r.body as { system: Block[] }).system.find((b) => b.text.includes('<repository_instructions>'))!
          .text,
    );
    expect(analyze).not.toContain('path="src/AGENTS.md"');
    expect(generate).toContain('<instructions_file path="src/AGENTS.md">\n# src\n\nSrc rule');

    // The progress comment names the files read.
    const progress = world.comments().find((c) => c.body.includes('booty:progress'))!.body;
    expect(progress).toContain("**The repository's instructions read:** `AGENTS.md`");
    expect(progress).toContain('`src/AGENTS.md`');
    expect(progress).toContain('`docs/AGENTS.md`');
    expect(progress).toContain('`CLAUDE.md`');
  });
});
