import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import { FACTORIES } from '../../src/testing/fixtures.js';

describe('the store', () => {
  it('holds one collection per kind of the factory registry, and reset and clear', () => {
    const store = createMockApi().store;
    expect(Object.keys(store).sort()).toEqual([...Object.keys(FACTORIES), 'clear', 'reset'].sort());
  });

  it('returns copies, and changes records only through its methods', () => {
    const store = createMockApi().store;
    const [user] = store.users.all();
    user!.name = 'Changed';
    expect(store.users.get(user!.id)?.name).not.toBe('Changed');
    expect(store.users.update(user!.id, { name: 'Renamed' })?.name).toBe('Renamed');
    expect(store.users.get(user!.id)?.name).toBe('Renamed');
    expect(store.users.update('missing', { name: 'x' })).toBeUndefined();
    expect(store.users.delete(user!.id)).toBe(true);
    expect(store.users.delete(user!.id)).toBe(false);
    expect(store.users.get(user!.id)).toBeUndefined();
    expect(store.users.size).toBe(39);
  });

  it('clear empties everything and reset reseeds, with another seed if given', () => {
    const store = createMockApi({ seed: 3 }).store;
    const seeded = store.users.all();
    store.clear();
    for (const kind of Object.keys(FACTORIES) as (keyof typeof FACTORIES)[]) {
      expect(store[kind].size).toBe(0);
    }
    store.reset();
    expect(store.users.all()).toEqual(seeded);
    store.reset(4);
    expect(store.users.all()).toEqual(createMockApi({ seed: 4 }).store.users.all());
  });
});
