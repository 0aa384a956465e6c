import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortRelay } from '../../src/internal/abort.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('AbortRelay: one listener per caller signal', () => {
  it('adds one listener however many followers, and the last to leave takes it away', () => {
    const relay = new AbortRelay();
    const source = new AbortController().signal;
    const followers = Array.from({ length: 50 }, () => relay.follow(source));
    expect(listeners(source)).toBe(1);
    for (const follower of followers.slice(1)) relay.leave(source, follower);
    expect(listeners(source)).toBe(1);
    relay.leave(source, followers[0]!);
    expect(listeners(source)).toBe(0);
  });

  it('aborts every follower with the source’s reason, and keeps no listener', () => {
    const relay = new AbortRelay();
    const source = new AbortController();
    const followers = [relay.follow(source.signal), relay.follow(source.signal)];
    const reason = new Error('shutting down');
    source.abort(reason);
    expect(followers.map((follower) => follower.signal.reason)).toEqual([reason, reason]);
    expect(listeners(source.signal)).toBe(0);
    // Leaving after the abort is harmless.
    for (const follower of followers) relay.leave(source.signal, follower);
  });

  it('gives an aborted follower at once for an aborted source, adding no listener', () => {
    const relay = new AbortRelay();
    const source = AbortSignal.abort('gone');
    const follower = relay.follow(source);
    expect(follower.signal.aborted).toBe(true);
    expect(follower.signal.reason).toBe('gone');
    expect(listeners(source)).toBe(0);
    relay.leave(source, follower);
  });

  it('starts afresh after the last follower left', () => {
    const relay = new AbortRelay();
    const source = new AbortController();
    relay.leave(source.signal, relay.follow(source.signal));
    const follower = relay.follow(source.signal);
    expect(listeners(source.signal)).toBe(1);
    source.abort();
    expect(follower.signal.aborted).toBe(true);
  });
});
