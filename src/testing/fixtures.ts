import type { RecordFactory } from './collection.js';
import type { Random } from './random.js';
import type {
  MockBudget,
  MockPerson,
  MockRecognition,
  MockReward,
  MockTeam,
  MockUser,
  MockWebhook,
} from './records.js';
import { toTimestamp } from './time.js';
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
/** Team names and descriptions. */
export const TEAMS = [
  ['Engineering', 'Builds and runs the product.'],
  ['Design', 'Product and brand design.'],
  ['Customer Success', 'Keeps customers happy and productive.'],
  ['Sales', null],
  ['People Operations', 'Hiring, onboarding and everything in between.'],
  ['Finance', 'Budgets, payroll and forecasts.'],
  ['Marketing', null],
] as const;
/** Reward names, descriptions and costs. */
export const REWARDS = [
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
  users(): readonly MockUser[];
}

/** Builds one factory per record kind; fields a caller leaves out get these defaults. */
export function createFactories(context: FixtureContext) {
  const created = (): string => toTimestamp(context.now());
  const person = (): MockPerson => {
    const user = context.users().length ? context.random().pick(context.users()) : undefined;
    return user
      ? { id: user.id, name: user.name }
      : { id: context.random().uuid(), name: personName(context.random()) };
  };
  const team: RecordFactory<MockTeam> = (fields) => {
    const [name, description] = context.random().pick(TEAMS);
    return {
      id: context.random().uuid(),
      name,
      description,
      member_count: 0,
      created_at: created(),
      ...fields,
    };
  };
  const user: RecordFactory<MockUser> = (fields) => {
    const name = fields.name ?? personName(context.random());
    return {
      id: context.random().uuid(),
      name,
      email: emailOf(name),
      role: 'member',
      status: 'active',
      team_id: null,
      points_balance: 0,
      created_at: created(),
      ...fields,
    };
  };
  const reward: RecordFactory<MockReward> = (fields) => {
    const [name, description, cost] = context.random().pick(REWARDS);
    return {
      id: context.random().uuid(),
      name,
      description,
      cost,
      available: true,
      created_at: created(),
      ...fields,
    };
  };
  const budget: RecordFactory<MockBudget> = (fields) => {
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
  };
  const recognition: RecordFactory<MockRecognition> = (fields) => {
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
      created_at: created(),
      ...fields,
    };
  };
  const webhook: RecordFactory<MockWebhook> = (fields) => ({
    id: context.random().uuid(),
    url: 'https://hooks.example.com/recognition',
    events: ['*'],
    description: null,
    enabled: true,
    created_at: created(),
    secret: generateWebhookSecret(),
    ...fields,
  });
  return { team, user, reward, budget, recognition, webhook };
}

/** A full name from the name lists. */
export function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

/** The company address for a full name: `ada.lovelace@acme.example`. */
export function emailOf(name: string): string {
  const local = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');
  return `${local}@acme.example`;
}

/** A recognition message addressed to the recipient's first name. */
export function messageFor(random: Random, recipientName: string): string {
  return random.pick(MESSAGES).replace('{name}', recipientName.split(' ')[0]!);
}

/** The UTC month, quarter or year that holds `ms`: its first and last second. */
export function budgetPeriod(period: MockBudget['period'], ms: number): [number, number] {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const months = { monthly: 1, quarterly: 3, annual: 12 }[period];
  const first = Math.floor(date.getUTCMonth() / months) * months;
  return [Date.UTC(year, first, 1), Date.UTC(year, first + months, 1) - 1000];
}
