import { createMockApi } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const DAY = 86_400_000;

describe('seeding', () => {
  it('gives the same data for the same seed and other data for another', () => {
    const a = createMockApi({ seed: 7 }).store;
    const b = createMockApi({ seed: 7 }).store;
    const c = createMockApi({ seed: 8 }).store;
    for (const kind of ['users', 'teams', 'rewards', 'budgets', 'recognitions'] as const) {
      expect(a[kind].all()).toEqual(b[kind].all());
    }
    expect(c.users.all()).not.toEqual(a.users.all());
    expect(c.recognitions.all()).not.toEqual(a.recognitions.all());
  });

  it('seeds a realistic organisation', () => {
    const store = createMockApi().store;
    const users = store.users.all();
    const teams = store.teams.all();
    expect(teams.length).toBeGreaterThanOrEqual(4);
    expect(teams.length).toBeLessThanOrEqual(6);
    expect(users).toHaveLength(40);
    expect(new Set(users.map((user) => user.role))).toEqual(
      new Set(['admin', 'manager', 'member']),
    );
    expect(new Set(users.map((user) => user.status))).toEqual(new Set(['active', 'deactivated']));
    expect(store.rewards.size).toBe(10);
    expect(store.budgets.size).toBe(teams.length + 1);
    expect(store.recognitions.size).toBe(300);
    expect(store.webhooks.size).toBe(0);
    for (const team of teams) {
      expect(team.member_count).toBe(users.filter((user) => user.team_id === team.id).length);
    }
    for (const user of users) {
      expect(user.email).toMatch(/^[a-z.]+@acme\.example$/);
      expect(user.team_id === null || teams.some((team) => team.id === user.team_id)).toBe(true);
    }
    for (const budget of store.budgets.all()) {
      expect(budget.remaining_points).toBe(budget.total_points - budget.used_points);
      expect(budget.remaining_points).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives canonical v4-shaped ids and contract timestamps', () => {
    const store = createMockApi().store;
    const records = [
      ...store.users.all(),
      ...store.teams.all(),
      ...store.rewards.all(),
      ...store.budgets.all(),
      ...store.recognitions.all(),
    ];
    for (const record of records) expect(record.id).toMatch(UUID);
    expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
    for (const recognition of store.recognitions.all()) {
      expect(recognition.created_at).toMatch(TIMESTAMP);
    }
  });

  it('spreads recognitions over the 90 days before the reference date, between distinct active users', () => {
    const store = createMockApi({ referenceDate: '2030-01-01T00:00:00Z', recognitions: 500 }).store;
    const reference = Date.parse('2030-01-01T00:00:00Z');
    const times = store.recognitions.all().map((recognition) => Date.parse(recognition.created_at));
    expect(store.recognitions.size).toBe(500);
    expect(Math.max(...times)).toBeLessThanOrEqual(reference);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(reference - 90 * DAY);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(80 * DAY);
    const users = new Map(store.users.all().map((user) => [user.id, user]));
    for (const { sender, recipient } of store.recognitions.all()) {
      expect(sender.id).not.toBe(recipient.id);
      expect(users.get(sender.id)?.name).toBe(sender.name);
      expect(users.get(recipient.id)?.status).toBe('active');
    }
  });

  it('leads up to the clock when one is given and no reference date', () => {
    const now = Date.parse('2031-06-15T08:00:00Z');
    const times = createMockApi({ now: () => now })
      .store.recognitions.all()
      .map((recognition) => Date.parse(recognition.created_at));
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
    expect(Math.max(...times)).toBeGreaterThan(now - 5 * DAY);
  });
});

describe('the default seed', () => {
  it('holds the colleague README’s samples recognize: active, and not the default key’s user', () => {
    const users = createMockApi().store.users.all();
    const colleague = users.find((user) => user.id === '2236ac14-de7d-4c3e-8c83-0ee83894a982');
    expect(colleague).toMatchObject({ status: 'active' });
    expect(users[0]!.id).not.toBe(colleague!.id);
  });
});

describe('factories', () => {
  it('insert fills the fields left out, with deterministic ids', () => {
    const now = () => Date.parse('2026-11-21T12:00:00Z');
    const first = createMockApi({ now }).store.users.insert({ name: 'Grace Hopper' });
    const second = createMockApi({ now }).store.users.insert({ name: 'Grace Hopper' });
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace.hopper@acme.example',
      role: 'member',
      status: 'active',
      team_id: null,
      points_balance: 0,
      created_at: '2026-11-21T12:00:00Z',
    });
    expect(first.id).toMatch(UUID);
  });

  it('inserts recognitions between two existing users and webhooks with a secret', () => {
    const store = createMockApi().store;
    const recognition = store.recognitions.insert({ points: 42 });
    expect(recognition.points).toBe(42);
    expect(recognition.sender.id).not.toBe(recognition.recipient.id);
    expect(store.users.get(recognition.recipient.id)?.name).toBe(recognition.recipient.name);
    expect(store.webhooks.insert().secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const budget = store.budgets.insert({ total_points: 500, used_points: 200 });
    expect(budget.remaining_points).toBe(300);
  });

  it('computes the quarter of a quarterly budget inserted into the store', () => {
    const budget = createMockApi({
      now: () => Date.parse('2026-05-10T00:00:00Z'),
    }).store.budgets.insert({
      period: 'quarterly',
    });
    expect(budget).toMatchObject({
      starts_at: '2026-04-01T00:00:00Z',
      ends_at: '2026-06-30T23:59:59Z',
    });
  });
});
