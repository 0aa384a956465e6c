import { describe, expectTypeOf, it } from 'vitest';
import type { WebhookEventType } from '../../src/contract.js';
import type {
  Budget,
  KnownWebhookEvent,
  Recognition,
  RecognitionParticipant,
  Reward,
  Team,
  TeamMemberEventData,
  UnknownWebhookEvent,
  User,
  WebhookEvent,
  WebhookEventDataMap,
  WebhookEventOf,
} from '../../src/webhooks/index.js';

// Type-level tests: `tsc --noEmit` checks them; at run time they only need to run.

describe('WebhookEvent types', () => {
  it('narrows data to Recognition after comparing type with recognition.created', () => {
    (event: WebhookEvent) => {
      if (event.type === 'recognition.created') {
        expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'recognition.created'>>();
        expectTypeOf(event.data).toEqualTypeOf<Recognition>();
        expectTypeOf(event.data.sender.name).toEqualTypeOf<string>();
      }
    };
  });

  it('narrows each group in a switch and leaves types added later to the default branch', () => {
    (event: WebhookEvent) => {
      switch (event.type) {
        case 'user.deactivated':
          expectTypeOf(event.data).toEqualTypeOf<User>();
          break;
        case 'reward.redeemed':
          expectTypeOf(event.data).toEqualTypeOf<Reward>();
          break;
        case 'team.deleted':
          expectTypeOf(event.data).toEqualTypeOf<Team>();
          break;
        case 'team.member_added':
        case 'team.member_removed':
          expectTypeOf(event.data).toEqualTypeOf<TeamMemberEventData>();
          expectTypeOf(event.data.user).toEqualTypeOf<User>();
          break;
        case 'budget.depleted':
          expectTypeOf(event.data).toEqualTypeOf<Budget>();
          break;
        case 'recognition.created':
        case 'recognition.updated':
        case 'recognition.deleted':
        case 'user.created':
        case 'user.updated':
        case 'reward.created':
        case 'reward.updated':
        case 'reward.deleted':
        case 'team.created':
        case 'team.updated':
        case 'budget.created':
        case 'budget.updated':
          break;
        default:
          expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
          expectTypeOf(event.data).toBeUnknown();
          expectTypeOf(String(event.type)).toBeString();
          expectTypeOf(event.type.startsWith('recognition.')).toBeBoolean();
      }
    };
  });

  it('describes data for exactly the event types of the contract (WEBHOOK_EVENT_TYPES)', () => {
    expectTypeOf<keyof WebhookEventDataMap>().toEqualTypeOf<WebhookEventType>();
    expectTypeOf<KnownWebhookEvent['type']>().toEqualTypeOf<WebhookEventType>();
  });

  it('keeps enumeration values that later API versions add', () => {
    expectTypeOf<'admin'>().toExtend<User['role']>();
    expectTypeOf<'auditor'>().toExtend<User['role']>();
    expectTypeOf<User['team_id']>().toEqualTypeOf<string | null>();
  });

  it('types every payload as a plain interface, without an index signature', () => {
    // Distributes over a union: true for each member that has one.
    type IndexSignatureOf<Data> = Data extends unknown
      ? string extends keyof Data
        ? true
        : never
      : never;
    type Payloads = WebhookEventDataMap[WebhookEventType];
    type Nested = RecognitionParticipant | TeamMemberEventData['team' | 'user'];
    expectTypeOf<IndexSignatureOf<Payloads | Nested>>().toBeNever();
    expectTypeOf<Budget>().not.toHaveProperty('message');
  });

  it('makes a field the payload lacks, or a typo, a compile error', () => {
    // Each line below must fail to compile: `tsc --noEmit` (npm run typecheck) checks this file,
    // and an @ts-expect-error that finds no error is itself an error.
    (event: WebhookEvent) => {
      switch (event.type) {
        case 'budget.depleted':
          // @ts-expect-error A budget has no message: that is a recognition's field.
          void event.data.message;
          break;
        case 'recognition.created':
          // @ts-expect-error A typo of message.
          void event.data.mesage;
          // @ts-expect-error A typo of points.
          void event.data.point;
          // @ts-expect-error The field is created_at.
          void event.data.createdAt;
          // @ts-expect-error A participant has id and name only.
          void event.data.sender.email;
          break;
        case 'team.member_added':
          // @ts-expect-error The data holds team and user, not the fields of either.
          void event.data.name;
          break;
      }
    };
  });

  it('does not let a plain string pass for a type this version does not know', () => {
    expectTypeOf<string>().not.toExtend<WebhookEvent['type']>();
  });
});
