// Realistic data: a factory per kind of record (the registry the store is built from) and the
// seeded organisation. The same seed always gives the same records.
import type { Random } from './random.js';
import type {
  MockBudget,
  MockPerson,
  MockRecords,
  MockStore,
  RecordFactory,
  RecordKind,
} from './records.js';
import { DAY_MS, toTimestamp } from './time.js';
import { generateWebhookSecret } from './webhook-signer.js';

// Realistic values for generated records.
const FIRST_NAMES = [
  ...'Ada Amara Ben Carmen Chen Dmitri Elena Fatima Grace Hiro Ines Jamal Kai Lena Mateo'.split(
    ' ',
  ),
  ...'Nadia Omar Priya Quinn Rosa Samir Tess Uma Victor Wen Yara Zoe Luca Maya Noah'.split(' '),
];
const LAST_NAMES = [
  ...'Lovelace Okafor Schmidt García Wei Ivanov Rossi Haddad Hopper Tanaka Moreau'.split(' '),
  ...'Johnson Kowalski Nguyen Silva Patel Larsen Murphy Costa Fischer Andersson'.split(' '),
  ...'Dubois Kim Mensah Novak'.split(' '),
];
// Team names and descriptions.
const TEAMS = [
  ['Engineering', 'Builds and runs the product.'],
  ['Design', 'Product and brand design.'],
  ['Customer Success', 'Keeps customers happy and productive.'],
  ['Sales', null],
  ['People Operations', 'Hiring, onboarding and everything in between.'],
  ['Finance', 'Budgets, payroll and forecasts.'],
  ['Marketing', null],
] as const;
// Reward names, descriptions and costs.
const REWARDS = [
  ['Extra day off', 'One additional paid day off, to be taken within the year.', 5000],
  ['Coffee voucher', 'A voucher for the café around the corner.', 50],
  ['Team lunch', 'Lunch for your team, on us.', 1500],
  ['Book of your choice', null, 300],
  ['Conference ticket', 'A ticket to a conference of your choice.', 4000],
  ['Company hoodie', 'The warm one, in your size.', 400],
  ['Charity donation', 'We donate to a charity you pick.', 1000],
  ['Cinema tickets', 'Two tickets for any screening.', 350],
  ['Online course', 'Any course up to the value of the reward.', 2500],
  ['Plant for your desk', null, 150],
  ['Spa voucher', 'A relaxing afternoon.', 3000],
  ['Headphones', 'Noise-cancelling, for focused work.', 4500],
] as const;
const MESSAGES = [
  'Thanks for jumping on the incident last night, {name}!',
  'Great demo today, {name}. The customer loved it.',
  '{name} reviewed my pull request within minutes. Lifesaver!',
  'Thank you for onboarding our new hires so warmly, {name}.',
  'Brilliant work on the quarterly report, {name}.',
  '{name} stayed late to help me fix the deployment. Thank you!',
  'Your documentation made my week, {name}.',
  'Thanks for covering my shift, {name}.',
  'Amazing presentation at the all-hands, {name}!',
  '{name} turned a difficult customer call into a renewal.',
  'Thank you for the thoughtful feedback on my design, {name}.',
  'Kudos to {name} for organising the team offsite.',
  '{name} found the bug nobody else could. Impressive!',
  'Thanks for mentoring me this quarter, {name}.',
  'Shout-out to {name} for keeping the release on schedule.',
] as const;
const POINTS = [0, 5, 10, 10, 20, 25, 25, 50, 100] as const;

/** What the record factories draw on. */
export interface FixtureContext {
  /** The store's current randomness (reseeded by a reset). */
  random(): Random;
  now(): number;
  users(): readonly MockRecords['users'][];
}

/**
 * The factory of each kind of record; fields a caller leaves out get these defaults. A new kind
 * of record is an entry of `MockRecords` and one factory here: the store builds its collections
 * from this registry.
 */
export const FACTORIES: {
  readonly [Kind in RecordKind]: (context: FixtureContext) => RecordFactory<MockRecords[Kind]>;
} = {
  users: (context) => (fields) => {
    const name = fields.name ?? personName(context.random());
    return {
      id: context.random().uuid(),
      name,
      email: emailOf(name),
      role: 'member',
      status: 'active',
      team_id: null,
      points_balance: 0,
      created_at: toTimestamp(context.now()),
      ...fields,
    };
  },
  teams: (context) => (fields) => {
    const [name, description] = context.random().pick(TEAMS);
    return {
      id: context.random().uuid(),
      name,
      description,
      member_count: 0,
      created_at: toTimestamp(context.now()),
      ...fields,
    };
  },
  rewards: (context) => (fields) => {
    const [name, description, cost] = context.random().pick(REWARDS);
    return {
      id: context.random().uuid(),
      name,
      description,
      cost,
      available: true,
      created_at: toTimestamp(context.now()),
      ...fields,
    };
  },
  budgets: (context) => (fields) => {
    const period = fields.period ?? 'monthly';
    const [starts, ends] = budgetPeriod(period, context.now());
    const total = fields.total_points ?? 10_000;
    const used = fields.used_points ?? 0;
    return {
      id: context.random().uuid(),
      team_id: null,
      period,
      total_points: total,
      used_points: used,
      remaining_points: Math.max(0, total - used),
      starts_at: toTimestamp(starts),
      ends_at: toTimestamp(ends),
      ...fields,
    };
  },
  recognitions: (context) => (fields) => {
    const person = (): MockPerson => {
      const users = context.users();
      const user = users.length ? context.random().pick(users) : undefined;
      return user
        ? { id: user.id, name: user.name }
        : { id: context.random().uuid(), name: personName(context.random()) };
    };
    const sender = fields.sender ?? person();
    let recipient = fields.recipient ?? person();
    // A store with one user cannot avoid it; every larger store can.
    for (let tries = 0; recipient.id === sender.id && tries < 10; tries++) recipient = person();
    return {
      id: context.random().uuid(),
      sender,
      recipient,
      message: messageFor(context.random(), recipient.name),
      points: context.random().pick(POINTS),
      created_at: toTimestamp(context.now()),
      ...fields,
    };
  },
  webhooks: (context) => (fields) => ({
    id: context.random().uuid(),
    url: 'https://hooks.example.com/recognition',
    events: ['*'],
    description: null,
    enabled: true,
    created_at: toTimestamp(context.now()),
    secret: generateWebhookSecret(),
    ...fields,
  }),
};

/** How much data to seed, and the moment it leads up to. */
export interface SeedOptions {
  recognitions: number;
  /** Seeded recognitions lie in the days before this time. */
  referenceMs: number;
}

// How far back seeded recognitions reach.
const RECOGNITION_SPAN_DAYS = 90;
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

// A full name from the name lists.
function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

// The company address for a full name: `ada.lovelace@acme.example`.
function emailOf(name: string): string {
  const local = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');
  return `${local}@acme.example`;
}

// A recognition message addressed to the recipient's first name.
function messageFor(random: Random, recipientName: string): string {
  return random.pick(MESSAGES).replace('{name}', recipientName.split(' ')[0]!);
}

// The UTC month, quarter or year that holds `ms`: its first and last second.
function budgetPeriod(period: MockBudget['period'], ms: number): [number, number] {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const months = { monthly: 1, quarterly: 3, annual: 12 }[period];
  const first = Math.floor(date.getUTCMonth() / months) * months;
  return [Date.UTC(year, first, 1), Date.UTC(year, first + months, 1) - 1000];
}
