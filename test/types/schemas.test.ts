/**
 * The public record and params interfaces are written out by hand, for their documentation; the
 * zod schemas that check the wire are internal. A `toEqualTypeOf` whose types differ does not
 * compile, so `tsc --noEmit` (and vitest with --typecheck) fails as soon as the two drift apart.
 * Schemas are loose objects, so their output carries an index signature for unknown fields:
 * `Known` removes it before comparing.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  AnalyticsSummary,
  Budget,
  Recognition,
  RecognitionCreateParams,
  RecognitionListParams,
  RecognitionParticipant,
  Reward,
  RewardListParams,
  Team,
  TeamListParams,
  User,
  UserListParams,
  Webhook,
  WebhookCreateParams,
  WebhookUpdateParams,
  WebhookWithSecret,
} from '../../src/index.js';
import type { analyticsSummarySchema } from '../../src/resources/analytics.js';
import type { budgetSchema } from '../../src/resources/budgets.js';
import type {
  participantSchema,
  recognitionCreateParamsSchema,
  recognitionListParamsSchema,
  recognitionSchema,
} from '../../src/resources/recognitions.js';
import type { rewardSchema } from '../../src/resources/rewards.js';
import type { pageParamsSchema } from '../../src/resources/shared.js';
import type { teamSchema } from '../../src/resources/teams.js';
import type { userSchema } from '../../src/resources/users.js';
import type {
  webhookCreateParamsSchema,
  webhookSchema,
  webhookUpdateParamsSchema,
  webhookWithSecretSchema,
} from '../../src/resources/webhooks.js';

/** `T` without index signatures, at every depth: the fields a schema or interface names. */
type Known<T> = T extends Date | string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer Item)[]
    ? T extends unknown[]
      ? Known<Item>[]
      : readonly Known<Item>[]
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
      : T;

type Output<S extends z.ZodMiniType> = Known<z.output<S>>;
type Input<S extends z.ZodMiniType> = Known<z.input<S>>;

describe('record and params interfaces', () => {
  it('equal what their schemas read, unknown fields aside', () => {
    expectTypeOf<Output<typeof recognitionSchema>>().toEqualTypeOf<Known<Recognition>>();
    expectTypeOf<Output<typeof participantSchema>>().toEqualTypeOf<Known<RecognitionParticipant>>();
    expectTypeOf<Output<typeof userSchema>>().toEqualTypeOf<Known<User>>();
    expectTypeOf<Output<typeof rewardSchema>>().toEqualTypeOf<Known<Reward>>();
    expectTypeOf<Output<typeof teamSchema>>().toEqualTypeOf<Known<Team>>();
    expectTypeOf<Output<typeof webhookSchema>>().toEqualTypeOf<Known<Webhook>>();
    expectTypeOf<Output<typeof webhookWithSecretSchema>>().toEqualTypeOf<
      Known<WebhookWithSecret>
    >();
    expectTypeOf<Output<typeof budgetSchema>>().toEqualTypeOf<Known<Budget>>();
    expectTypeOf<Output<typeof analyticsSummarySchema>>().toEqualTypeOf<Known<AnalyticsSummary>>();
  });

  it('equal what their schemas accept as input', () => {
    expectTypeOf<Input<typeof recognitionListParamsSchema>>().toEqualTypeOf<
      Known<RecognitionListParams>
    >();
    expectTypeOf<Input<typeof recognitionCreateParamsSchema>>().toEqualTypeOf<
      Known<RecognitionCreateParams>
    >();
    expectTypeOf<Input<typeof pageParamsSchema>>().toEqualTypeOf<Known<UserListParams>>();
    expectTypeOf<Input<typeof pageParamsSchema>>().toEqualTypeOf<Known<RewardListParams>>();
    expectTypeOf<Input<typeof pageParamsSchema>>().toEqualTypeOf<Known<TeamListParams>>();
    expectTypeOf<Input<typeof webhookCreateParamsSchema>>().toEqualTypeOf<
      Known<WebhookCreateParams>
    >();
    expectTypeOf<Input<typeof webhookUpdateParamsSchema>>().toEqualTypeOf<
      Known<WebhookUpdateParams>
    >();
  });
});
