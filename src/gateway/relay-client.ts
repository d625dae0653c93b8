import WebSocket from 'ws';
import { BootyError } from '../errors.js';

// Sends inspector messages to a relay that is already running, e.g. @statelyai/inspect's own
// server (`createInspectorServer`, ws://localhost:8080), which hands them on to its viewers.

export async function sendToRelay(url: string, lines: string[]): Promise<void> {
  const ws = new WebSocket(url);
  const fail = (err: Error) =>
    new BootyError('BOOTY_E_INSPECTOR', { op: `reach ${url}`, reason: err.message });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await Promise.all(
      lines.map(
        (line) =>
          new Promise<void>((resolve, reject) => ws.send(line, (err) => (err ? reject(err) : resolve()))),
      ),
    );
  } catch (err) {
    ws.terminate();
    throw fail(err as Error);
  }
  ws.close(1000, 'replay sent');
  await closed;
}
