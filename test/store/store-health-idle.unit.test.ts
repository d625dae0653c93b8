import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreHealth, type StoreState } from '../../src/store/store-health.js';

// A server database has no file to watch: while it takes writes the health check keeps no timer
// (an idle worker is not woken every second); while it fails, it probes every interval.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A store whose probe write fails while `down` says so, as PostgreSQL refuses a read-only write. */
function serverStore() {
  const store = {
    down: false,
    probes: 0,
    async probeWritable() {
      store.probes++;
      if (store.down) throw Object.assign(new Error('read-only transaction'), { code: '25006' });
    },
  };
  return store;
}

describe('store health on a server database', () => {
  it('given the store takes writes, then no timer runs', () => {
    const health = new StoreHealth({ store: serverStore() });
    health.start();
    expect(vi.getTimerCount()).toBe(0);
    health.stop();
  });

  it('given a write fails, then it probes every interval until a probe commits, and then keeps no timer', async () => {
    const store = serverStore();
    const states: StoreState[] = [];
    const health = new StoreHealth({ store, onChange: (state) => states.push(state) });
    health.start();
    store.down = true;
    expect(health.failed(Object.assign(new Error('read-only transaction'), { code: '25006' }))).toBe(true);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(store.probes).toBe(3);
    expect(health.ok).toBe(false);
    store.down = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(health.ok).toBe(true);
    expect(states).toEqual(['failing', 'ok']);
    expect(vi.getTimerCount()).toBe(0);
    health.stop();
  });

  it('given it is stopped while failing, then no timer is left', () => {
    const health = new StoreHealth({ store: serverStore() });
    health.start();
    health.failed(Object.assign(new Error('terminating connection'), { code: '57P01' }));
    expect(vi.getTimerCount()).toBe(1);
    health.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
