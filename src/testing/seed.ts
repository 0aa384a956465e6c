import { budgetPeriod, personName, REWARDS, TEAMS } from './fixtures.js';
import type { Random } from './random.js';
import type { MockStore } from './store.js';
import { DAY_MS, toTimestamp } from './time.js';

/** How much data to seed, and the moment it leads up to. */
export interface SeedOptions {
  recognitions: number;
  /** Seeded recognitions lie in the {@link RECOGNITION_SPAN_DAYS} days before this time. */
  referenceMs: number;
}

/** How far back seeded recognitions reach. */
export const RECOGNITION_SPAN_DAYS = 90;
const USERS = 40;
// Drawn uniformly, so these are the odds of each role.
const ROLES = ['admin', 'manager', 'manager', ...Array<'member'>(7).fill('member')] as const;

/**
 * Fills an empty store: a few teams, users of every role and status, rewards, budgets and
 * recognitions. The same `random` state and options always give the same records.
 */
export function seedStore(store: MockStore, random: Random, options: SeedOptions): void {
  const { referenceMs } = options;
  const daysBefore = (min: number, max: number): string =>
    toTimestamp(referenceMs - random.int(min * 86_400, max * 86_400) * 1000);

  const teams = shuffle(random, TEAMS)
    .slice(0, random.int(4, 6))
    .map(([name, description]) =>
      store.teams.insert({ name, description, created_at: daysBefore(400, 800) }),
    );

  const names = new Set<string>();
  while (names.size < USERS) names.add(personName(random));
  const users = [...names].map((name, index) =>
    store.users.insert({
      name,
      // The first user owns the default key, so it can always send recognitions.
      role: index === 0 ? 'admin' : random.pick(ROLES),
      status: index > 0 && random.next() < 0.1 ? 'deactivated' : 'active',
      team_id: random.next() < 0.1 ? null : random.pick(teams).id,
      points_balance: random.int(0, 50) * 100,
      created_at: daysBefore(RECOGNITION_SPAN_DAYS, 700),
    }),
  );
  for (const team of teams) {
    store.teams.update(team.id, {
      member_count: users.filter((user) => user.team_id === team.id).length,
    });
  }

  for (const [name, description, cost] of shuffle(random, REWARDS).slice(0, 10)) {
    store.rewards.insert({
      name,
      description,
      cost,
      available: random.next() < 0.8,
      created_at: daysBefore(30, 600),
    });
  }

  const budgets = [
    ...teams.map((team) => ({
      team_id: team.id,
      period: 'monthly' as const,
      total: random.int(20, 60) * 100,
    })),
    { team_id: null, period: 'annual' as const, total: 100_000 },
  ];
  for (const { team_id, period, total } of budgets) {
    const [starts, ends] = budgetPeriod(period, referenceMs);
    store.budgets.insert({
      team_id,
      period,
      total_points: total,
      used_points: Math.floor(total * random.next()),
      starts_at: toTimestamp(starts),
      ends_at: toTimestamp(ends),
    });
  }

  // Message and points come from the recognition factory.
  const active = users.filter((user) => user.status === 'active');
  for (let i = 0; i < options.recognitions; i++) {
    const sender = random.pick(active);
    const recipient = random.pick(active.filter((user) => user.id !== sender.id));
    store.recognitions.insert({
      sender: { id: sender.id, name: sender.name },
      recipient: { id: recipient.id, name: recipient.name },
      created_at: toTimestamp(referenceMs - random.int(0, RECOGNITION_SPAN_DAYS * DAY_MS)),
    });
  }
}

function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
