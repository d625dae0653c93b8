import { pino } from 'pino';
import { prettyStream } from './log-pretty.js';

// One logger for the process: JSON lines, or readable lines when it writes to a terminal. Secrets
// are redacted by path wherever they might appear, and child loggers carry the delivery and job ids.

export const redactPaths = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["x-hub-signature-256"]',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'privateKey',
  '*.privateKey',
  'env.GITHUB_TOKEN',
  'env.GITHUB_PRIVATE_KEY',
  'env.GITHUB_WEBHOOK_SECRET',
  'env.GITHUB_WEBHOOK_SECRET_PREVIOUS',
  'env.ANTHROPIC_API_KEY',
  'env.GITHUB_CLIENT_SECRET',
];

export type Logger = pino.Logger;

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  // A given destination is a file or a test's stream: JSON. Standard output to a person: readable.
  const pretty = options.destination === undefined && process.stdout.isTTY === true;
  return pino(
    {
      name: 'booty',
      level: options.level ?? 'info',
      redact: { paths: redactPaths, censor: '[redacted]' },
    },
    pretty ? prettyStream(process.stdout) : options.destination,
  );
}
