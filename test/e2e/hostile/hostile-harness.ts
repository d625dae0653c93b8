import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { Responder } from '../../../sim/anthropic/anthropic-simulator.js';
import { bareDir } from '../../../sim/github/github-sim-git.js';
import type { JobSnapshot } from '../../../src/machines/fold.js';
import { tempDir } from '../../support/job-harness.js';
import { type e2eWorld, OWNER, REPO } from '../e2e-world.js';

// What the hostile end-to-end tests share: fixture repositories, the targets an attack is told
// about, the model's hostile answer, controls run on the host without any wall, and the checks
// that the wall held after a job: the pushed tree is the logged change, no secret reached a
// comment, a PR, the event log or a model request, and no process the attack started is alive.

export type World = Awaited<ReturnType<typeof e2eWorld>>;

const here = path.dirname(fileURLToPath(import.meta.url));

export const rand = (n = 12) => randomBytes(n).toString('hex');

const made: string[] = [];

/** A temporary directory, removed by removeTemps(). */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

/** Removes every directory this file made, and the worlds' own. */
export function removeTemps(...worlds: (World | null | undefined)[]) {
  for (const dir of [...made.splice(0), ...worlds.map((w) => w?.dir)]) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A copy of a fixture repository under test/e2e/hostile/repos, with extra files written in. */
export function fixtureRepo(name: string, extra: Record<string, string> = {}): string {
  const dir = scratchDir(`booty-hostile-${name}-`);
  fs.cpSync(path.join(here, 'repos', name), dir, { recursive: true });
  writeFiles(dir, extra);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | null>) {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    if (content === null) {
      fs.rmSync(file, { force: true });
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export const remoteOf = (world: World) => bareDir(world.github.dir, OWNER, REPO);

const gitId = ['-c', 'user.name=hostile', '-c', 'user.email=hostile@example.test'];

/** A commit on the repository's main branch, pushed straight into the simulator's bare repository. */
export async function commitToMain(world: World, files: Record<string, string>, message: string) {
  const work = tempDir('booty-hostile-push-');
  try {
    await execa('git', ['clone', '--quiet', remoteOf(world), work]);
    writeFiles(work, files);
    await execa('git', ['add', '--all'], { cwd: work });
    await execa('git', [...gitId, 'commit', '--quiet', '-m', message], { cwd: work });
    await execa('git', ['push', '--quiet', 'origin', 'HEAD:main'], { cwd: work });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A work tree of the repository's main branch on the host, for the controls. */
export async function hostClone(world: World, changes: Record<string, string | null> = {}) {
  const dir = scratchDir('booty-hostile-control-');
  await execa('git', ['clone', '--quiet', remoteOf(world), dir]);
  writeFiles(dir, changes);
  return dir;
}

/** The attack files run with no wall at all, as a control: node --test straight on the host. */
export async function onHost(cwd: string, files: string[], env: Record<string, string> = {}) {
  const r = await execa(process.execPath, ['--test', '--test-reporter=spec', ...files], {
    cwd,
    env: { ...process.env, ...env },
    reject: false,
    all: true,
    timeout: 60_000,
  });
  return { exitCode: r.exitCode, output: String(r.all ?? '') };
}

export type Finding = Record<string, any> & { kind: string };

/** The `HOSTILE {json}` lines an attack printed. */
export function findings(output: string, kind?: string): Finding[] {
  const out: Finding[] = [];
  for (const m of output.matchAll(/^HOSTILE (\{.*\})$/gm)) {
    try {
      const f = JSON.parse(m[1]!) as Finding;
      if (kind === undefined || f.kind === kind) out.push(f);
    } catch {
      // a line cut by the output tail
    }
  }
  return out;
}

/** Every test run of a job, the baseline first. */
export function runsOf(snapshot: JobSnapshot) {
  const { baseline, attempts } = snapshot.context;
  return [baseline, ...attempts.map((a) => a.test)].filter((r) => r !== null);
}

/** Live processes (zombies excepted) whose command line contains the marker anywhere. */
export function liveWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!fs.readFileSync(`/proc/${d}/cmdline`, 'latin1').includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z') pids.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return pids.filter((p) => p !== process.pid);
}

/** Kills, by pid, the processes a control started (they carry the control's own marker). */
export async function killMarked(marker: string) {
  for (let i = 0; i < 50; i++) {
    const pids = liveWithMarker(marker);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP listener on 127.0.0.1 that keeps everything it is sent; `greeting` is said on connect. */
export async function listener(greeting?: string) {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let data = '';
    if (greeting) socket.write(greeting);
    socket.on('data', (d) => {
      data += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      received.push(data);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** The model: an analysis naming the files, then the given change, on every attempt. */
export function hostileModel(answer: {
  explanation: string;
  changes: { path: string; content: string }[];
  deletePaths?: string[];
}): Responder {
  const analysis = {
    summary: 'Add shout(name) beside greet(name), with a test.',
    changeKind: 'feat',
    filesToRead: ['src/greet.js'],
    filesToChange: answer.changes.filter((c) => !c.path.startsWith('test/')).map((c) => c.path),
    testsToAdd: answer.changes.filter((c) => c.path.startsWith('test/')).map((c) => c.path),
    acceptanceCriteria: ["shout('ada') === 'HELLO, ADA!'"],
    risks: [],
  };
  return (request) => {
    if (request.toolName === 'submit_analysis') return { answer: analysis };
    if (request.toolName === 'submit_changes') return { answer: { deletePaths: [], ...answer } };
    return undefined;
  };
}

export const shoutIssue = {
  title: 'Add shout(name)',
  body: 'greet(name) is too quiet. Add shout(name), which returns the greeting in capitals with a "!".',
};

export const shoutSource = `export function greet(name) {
  return \`hello, \${name}\`;
}

export function shout(name) {
  return \`\${greet(name).toUpperCase()}!\`;
}
`;

export const shoutTest = `import assert from 'node:assert/strict';
import test from 'node:test';
import { shout } from '../src/greet.js';

test('shouts the greeting', () => {
  assert.equal(shout('ada'), 'HELLO, ADA!');
});
`;

// ---------------------------------------------------------------------------------------------
// The wall held

/** The head of the job's branch in the simulator's bare repository holds exactly the logged change. */
export async function expectPushedTreeIsTheLog(world: World, snapshot: JobSnapshot) {
  const { pr, changes, workspace, branch } = snapshot.context;
  expect(pr).not.toBeNull();
  const bare = remoteOf(world);
  const git = (args: string[]) => execa('git', args, { cwd: bare, maxBuffer: 256 * 1024 * 1024 });
  const head = (await git(['rev-parse', `refs/heads/${branch}`])).stdout.trim();
  expect(head).toBe(pr!.headSha);
  expect((await git(['rev-parse', `${head}^`])).stdout.trim()).toBe(workspace!.baseSha);
  const touched = (await git(['diff', '--name-only', workspace!.baseSha, head])).stdout
    .split('\n')
    .filter(Boolean);
  expect(touched.sort()).toEqual(changes.map((c) => c.path).sort());
  for (const change of changes) {
    const shown = await execa('git', ['cat-file', 'blob', `${head}:${change.path}`], {
      cwd: bare,
      reject: false,
      encoding: 'buffer',
      stripFinalNewline: false,
      maxBuffer: 256 * 1024 * 1024,
    });
    if (change.content === null) expect(shown.exitCode, change.path).not.toBe(0);
    else expect(Buffer.from(shown.stdout).equals(Buffer.from(change.content)), change.path).toBe(true);
  }
  return { head, bare };
}

/** Every row of every table of booty's SQLite log, as text. */
export function logRows(world: World): string[] {
  const db = new Database(path.join(world.dir, 'booty.db'), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).toContain('events');
    return tables.flatMap(({ name }) =>
      (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]).map(
        (row) => `${name}: ${Object.values(row).map(String).join('\n')}`,
      ),
    );
  } finally {
    db.close();
  }
}

/** Everything booty published or kept: comments, PR titles and bodies, log rows, model requests. */
export function publishedTexts(world: World): { where: string; text: string }[] {
  const rows = logRows(world);
  expect(rows.some((r) => r.startsWith('events: '))).toBe(true);
  return [
    ...world.github.comments(OWNER, REPO).map((c) => ({ where: `comment ${c.id}`, text: c.body })),
    ...world.pulls().map((p) => ({ where: `PR #${p.number}`, text: `${p.title}\n${p.body}` })),
    ...rows.map((text, i) => ({ where: `log row ${i}`, text })),
    ...world.anthropic.requests.map((r) => ({ where: `model request ${r.n}`, text: r.raw })),
  ];
}

/** Where each secret turned up; empty when the wall held. */
export function secretsPublished(world: World, secrets: readonly string[]) {
  const hits: string[] = [];
  for (const { where, text } of publishedTexts(world)) {
    for (const s of secrets) if (text.includes(s)) hits.push(`${where} holds ${s.slice(0, 16)}…`);
  }
  return hits;
}

export async function expectWallHeld(
  world: World,
  snapshot: JobSnapshot,
  { secrets, markers }: { secrets: readonly string[]; markers: readonly string[] },
) {
  if (snapshot.context.pr) await expectPushedTreeIsTheLog(world, snapshot);
  expect(secretsPublished(world, secrets)).toEqual([]);
  for (const m of markers) expect(liveWithMarker(m), m).toEqual([]);
}
