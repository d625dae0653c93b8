import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from '../../src/gateway/lazy-child-logger.js';

/** An info-level pino logger whose lines are kept, and a lazy child of it that counts its makings. */
function setup() {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const parent = pino({ level: 'info' }, out) as unknown as FastifyBaseLogger;
  let made = 0;
  const log = lazyChildLogger(parent, () => {
    made++;
    return parent.child({ deliveryId: 'd-1' });
  });
  return { lines, log, made: () => made };
}

describe('a request logger made only once it writes', () => {
  it('makes no child for lines below the level, and writes none', () => {
    const { lines, log, made } = setup();
    log.debug({ outcome: 'ignored' }, 'delivery');
    log.trace('nothing');
    expect(made()).toBe(0);
    expect(lines).toEqual([]);
    expect(log.level).toBe('info');
  });

  it('makes the child once, at the first line that writes, and every line carries its bindings', () => {
    const { lines, log, made } = setup();
    log.info({ outcome: 'started' }, 'delivery');
    log.warn('again');
    log.debug('still below the level');
    expect(made()).toBe(1);
    expect(lines.map((l) => [l.msg, l.deliveryId, l.outcome])).toEqual([
      ['delivery', 'd-1', 'started'],
      ['again', 'd-1', undefined],
    ]);
  });

  it("passes a child's child its parent's bindings and its own", () => {
    const { lines, log, made } = setup();
    log.child({ jobId: 'j-1' }).error('failed');
    expect(made()).toBe(1);
    expect(lines.map((l) => [l.msg, l.deliveryId, l.jobId])).toEqual([['failed', 'd-1', 'j-1']]);
  });
});
