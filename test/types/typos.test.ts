/**
 * Reading a field a record does not have is a compile error: the record types name their fields
 * and carry no index signature. Each `@ts-expect-error` line fails `tsc --noEmit` if the
 * expression below it ever compiles. The function is type-checked, never called.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnalyticsSummary,
  Budget,
  Recognition,
  RecognitionCreateParams,
  Reward,
  Team,
  User,
  Webhook,
  WebhookCreateParams,
} from '../../src/index.js';

export function typos(
  recognition: Recognition,
  user: User,
  reward: Reward,
  team: Team,
  webhook: Webhook,
  budget: Budget,
  summary: AnalyticsSummary,
) {
  return [
    // @ts-expect-error misspelled: message
    recognition.mesage,
    // @ts-expect-error singular: points
    recognition.point,
    // @ts-expect-error camelCase: created_at
    recognition.createdAt,
    // @ts-expect-error participants have id and name only
    recognition.sender.email,
    // @ts-expect-error camelCase: team_id
    user.teamId,
    // @ts-expect-error misspelled: points_balance
    user.points_ballance,
    // @ts-expect-error a reward has cost, not price
    reward.price,
    // @ts-expect-error camelCase: member_count
    team.memberCount,
    // @ts-expect-error the secret is shown only by webhooks.create
    webhook.secret,
    // @ts-expect-error misspelled: remaining_points
    budget.remaining,
    // @ts-expect-error camelCase: participation_rate
    summary.participationRate,
  ];
}

export function inputTypos(): [RecognitionCreateParams, WebhookCreateParams] {
  return [
    // @ts-expect-error camelCase: recipient_id
    { recipientId: 'b5e4d3c2-a1f0-4e9d-8c7b-6a5f4e3d2c1b', message: 'Thanks!' },
    // @ts-expect-error misspelled: events
    { url: 'https://hooks.example.com', event: ['recognition.created'] },
  ];
}

describe('record types', () => {
  it('offer the documented fields, and a cast reaches one added later', () => {
    expectTypeOf<Recognition['points']>().toEqualTypeOf<number>();
    expectTypeOf<(Recognition & { mood?: string })['mood']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<User['role']>().toExtend<string>();
  });
});
