// Writes docs/events/ from the event catalogue: `npm run docs:events`.
import fs from 'node:fs';
import path from 'node:path';
import { eventSchemaFiles } from '../src/events/json-schema.js';

const dir = path.resolve(import.meta.dirname, '../docs/events');
fs.rmSync(dir, { recursive: true, force: true });
for (const [name, text] of Object.entries(eventSchemaFiles())) {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}
