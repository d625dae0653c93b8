import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, STEPS } from '../../src/events/catalogue.js';
import { eventSchemaFiles } from '../../src/events/json-schema.js';

const dir = path.resolve(import.meta.dirname, '../../docs/events');

describe('docs/events', () => {
  const files = eventSchemaFiles();

  it('holds a schema for every event type at its version and for every step result', () => {
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.md',
        ...Object.entries(catalogue).map(([type, { version }]) => `${type}.v${version}.schema.json`),
        ...STEPS.map((s) => `steps/${s}.schema.json`),
      ].sort(),
    );
  });

  it('is what the catalogue says today (run `npm run docs:events` when this fails)', () => {
    const written = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
    expect(written.sort()).toEqual(Object.keys(files).sort());
    for (const [name, text] of Object.entries(files)) {
      expect(fs.readFileSync(path.join(dir, name), 'utf8'), name).toBe(text);
    }
  });

  it('describes a baseline result by its fields, so a reader can check a row without booty', () => {
    const baseline = JSON.parse(files['steps/baseline.schema.json']!);
    expect(baseline.properties.step).toEqual({ type: 'string', const: 'baseline' });
    expect(baseline.properties.result.required).toEqual(
      expect.arrayContaining(['command', 'exitCode', 'cases', 'verdict', 'totals']),
    );
  });
});
