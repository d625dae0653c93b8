import { WebSocket, WebSocketServer } from 'ws';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { harness } from '../support/job-harness.js';
import type { Script } from '../support/scripted-effects.js';

// Shared by the inspector and CLI tests: a job recorded by a real run over a real SQLite file, and
// real websocket ends on 127.0.0.1.

export async function recordedJob(script: Script = { tests: [false, true] }) {
  const h = harness(script);
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await h.supervisor.whenFinished(r.jobId);
  const events = await h.store.readStream(r.jobId);
  await h.store.close();
  return { db: h.db, jobId: r.jobId, events, effects: h.effects, callsWhenRecorded: h.effects.log.length };
}

export async function readEvents(db: string, jobId: string) {
  const store = new SqliteEventStore(db);
  try {
    return await store.readStream(jobId);
  } finally {
    await store.close();
  }
}

/** A websocket listener standing in for the inspector's relay: it keeps what each sender sent. */
export async function relayListener() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const received: string[] = [];
  let senderDone!: () => void;
  const done = new Promise<void>((resolve) => {
    senderDone = resolve;
  });
  wss.on('connection', (ws) => {
    ws.on('message', (data) => received.push(data.toString()));
    ws.on('close', () => senderDone());
  });
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    /** Resolves when the sender has closed its socket. */
    done,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

/** A viewer as the bridge page is one: connects and keeps every message until the server closes. */
export function viewer(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const received: string[] = [];
  ws.on('message', (data) => received.push(data.toString()));
  const closed = new Promise<number>((resolve, reject) => {
    ws.once('close', (code) => resolve(code));
    ws.once('error', reject);
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, received, closed, opened };
}

export interface Message {
  type: '@xstate.actor' | '@xstate.event' | '@xstate.snapshot';
  sessionId: string;
  parentId?: string;
  rootId?: string;
  name?: string;
  definition?: string;
  createdAt: string;
  event?: { type: string } & Record<string, unknown>;
  snapshot?: { status: string; value?: unknown; context?: any; output?: unknown };
}

export const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Message);
