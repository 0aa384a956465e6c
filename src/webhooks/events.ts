import type { WebhookEventType } from '../contract.js';
import type { Budget } from '../resources/budgets.js';
import type { Recognition } from '../resources/recognitions.js';
import type { Reward } from '../resources/rewards.js';
import type { Team } from '../resources/teams.js';
import type { User } from '../resources/users.js';

/** `data` of `team.member_added` and `team.member_removed`. */
export interface TeamMemberEventData {
  /** The team the user joined or left. */
  team: Team;
  /** The user who joined or left it. */
  user: User;
}

/** Each known event type and the record its `data` holds (contract §9). */
export interface WebhookEventDataMap {
  /** A recognition was given: the new recognition. */
  'recognition.created': Recognition;
  /** A recognition changed: the recognition as it is now. */
  'recognition.updated': Recognition;
  /** A recognition was withdrawn: the recognition as it was. */
  'recognition.deleted': Recognition;
  /** A user was added: the new user. */
  'user.created': User;
  /** A user changed: the user as they are now. */
  'user.updated': User;
  /** A user was deactivated: the user as they are now. */
  'user.deactivated': User;
  /** A reward was added: the new reward. */
  'reward.created': Reward;
  /** A reward changed: the reward as it is now. */
  'reward.updated': Reward;
  /** A reward was removed: the reward as it was. */
  'reward.deleted': Reward;
  /** A user obtained a reward for points: the reward. */
  'reward.redeemed': Reward;
  /** A team was created: the new team. */
  'team.created': Team;
  /** A team changed: the team as it is now. */
  'team.updated': Team;
  /** A team was removed: the team as it was. */
  'team.deleted': Team;
  /** A user joined a team: the team and the user. */
  'team.member_added': TeamMemberEventData;
  /** A user left a team: the team and the user. */
  'team.member_removed': TeamMemberEventData;
  /** A budget was created: the new budget. */
  'budget.created': Budget;
  /** A budget changed: the budget as it is now. */
  'budget.updated': Budget;
  /** A budget ran out of points to give: the budget. */
  'budget.depleted': Budget;
}

/** The event of one known type. */
export interface WebhookEventOf<Type extends WebhookEventType> {
  /** The event id (`evt_…`); also sent as `webhook-id`, the same on every retry. */
  id: string;
  /** The event type, such as `recognition.created`. */
  type: Type;
  /** When the event happened: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
  /** The record the event is about, as {@link WebhookEventDataMap} gives it for `type`. */
  data: WebhookEventDataMap[Type];
}

/** An event of any known {@link WebhookEventType}, discriminated by `type`. */
export type KnownWebhookEvent = {
  [Type in WebhookEventType]: WebhookEventOf<Type>;
}[WebhookEventType];

declare const unknownEventType: unique symbol;

/**
 * A `type` this SDK version does not know yet; `String(event.type)` gives the text.
 *
 * Not a `string` on purpose: TypeScript keeps any string type, branded or not, as a candidate when
 * `event.type` is compared with a literal, so `data` would stay `unknown` after
 * `if (event.type === 'recognition.created')`. The `String` interface still offers the string
 * methods, and is not comparable with the known literals, so narrowing works.
 */
// eslint-disable-next-line @typescript-eslint/no-wrapper-object-types -- the object type String is the point, see above.
export type UnknownWebhookEventType = String & {
  /** A compile-time brand that tells this type from the known types; absent at run time. */
  readonly [unknownEventType]: true;
};

/** An event of a type added to the service after this SDK version: `data` is not described. */
export interface UnknownWebhookEvent {
  /** The event id (`evt_…`); also sent as `webhook-id`, the same on every retry. */
  id: string;
  /** The event type, one this SDK version does not know; `String(event.type)` gives the text. */
  type: UnknownWebhookEventType;
  /** When the event happened: ISO 8601, UTC, such as `2026-11-21T09:30:00Z`. */
  created_at: string;
  /** The record the event is about, as the service sent it; check its shape before use. */
  data: unknown;
}

/**
 * A verified webhook event. Check `type` to narrow `data` to its record; keep a fallback branch
 * for types added later (see {@link UnknownWebhookEvent}).
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;
