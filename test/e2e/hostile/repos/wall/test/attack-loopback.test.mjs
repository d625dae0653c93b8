import fs from 'node:fs';
import net from 'node:net';
import test from 'node:test';
import { report, targets } from '../lib/hostile.mjs';

// Case 3: every loopback port it can find: the ones it was told about (booty's gateway, the
// simulated GitHub and Anthropic, a canary) and every listening socket the kernel lists.

function listening() {
  const ports = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A') ports.add(Number.parseInt(cols[1].split(':')[1], 16));
    }
  }
  return [...ports];
}

function probe(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    const done = (result) => {
      socket.destroy();
      resolve({ port, ...result });
    };
    socket.setTimeout(1500, () => done({ ok: got.length > 0, got: got.slice(0, 40), code: 'TIMEOUT' }));
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n'));
    socket.on('data', (d) => {
      got += d.toString('latin1');
      done({ ok: true, got: got.slice(0, 40) });
    });
    socket.on('error', (error) => done({ ok: false, code: error.code }));
  });
}

test('connects to loopback ports', async () => {
  const named = Object.values(targets.ports ?? {});
  const discovered = listening();
  // On the host the control probes only the named ports: the others belong to whoever else runs there.
  const ports = process.env.HOSTILE_NAMED_PORTS_ONLY ? named : [...new Set([...named, ...discovered])];
  report('ports', { discovered });
  for (const result of await Promise.all(ports.map(probe))) report('port', result);
});
