import type { WebhookEventType } from '../contract.js';
import type { Budget, Recognition, Reward, Team, User } from './records.js';

/** `data` of `team.member_added` and `team.member_removed`. */
export interface TeamMemberEventData {
  team: Team;
  user: User;
  [field: string]: unknown;
}

/** Each known event type and the record its `data` holds (contract §9). */
export interface WebhookEventDataMap {
  'recognition.created': Recognition;
  'recognition.updated': Recognition;
  'recognition.deleted': Recognition;
  'user.created': User;
  'user.updated': User;
  'user.deactivated': User;
  'reward.created': Reward;
  'reward.updated': Reward;
  'reward.deleted': Reward;
  'reward.redeemed': Reward;
  'team.created': Team;
  'team.updated': Team;
  'team.deleted': Team;
  'team.member_added': TeamMemberEventData;
  'team.member_removed': TeamMemberEventData;
  'budget.created': Budget;
  'budget.updated': Budget;
  'budget.depleted': Budget;
}

/** The event of one known type. */
export interface WebhookEventOf<Type extends WebhookEventType> {
  /** The event id (`evt_…`); also sent as `webhook-id`, the same on every retry. */
  id: string;
  type: Type;
  /** ISO 8601, UTC. */
  created_at: string;
  data: WebhookEventDataMap[Type];
}

/** Any event of the 18 known types, discriminated by `type`. */
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
export type UnknownWebhookEventType = String & { readonly [unknownEventType]: true };

/** An event of a type added to the service after this SDK version: `data` is not described. */
export interface UnknownWebhookEvent {
  id: string;
  type: UnknownWebhookEventType;
  /** ISO 8601, UTC. */
  created_at: string;
  data: unknown;
}

/**
 * A verified webhook event. Check `type` to narrow `data` to its record; keep a fallback branch
 * for types added later (see {@link UnknownWebhookEvent}).
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;
