import type { WebhookEventType } from '../contract.js';

/** A user as it appears inside a recognition. */
export interface MockPerson {
  id: string;
  name: string;
}

/** A recognition record (contract §3). */
export interface MockRecognition {
  id: string;
  sender: MockPerson;
  recipient: MockPerson;
  message: string;
  points: number;
  created_at: string;
}

/** A user record (contract §3). */
export interface MockUser {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'manager' | 'member';
  status: 'active' | 'deactivated';
  team_id: string | null;
  points_balance: number;
  created_at: string;
}

/** A reward record (contract §3). */
export interface MockReward {
  id: string;
  name: string;
  description: string | null;
  cost: number;
  available: boolean;
  created_at: string;
}

/** A team record (contract §3). */
export interface MockTeam {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
  created_at: string;
}

/** A budget record (contract §3). */
export interface MockBudget {
  id: string;
  team_id: string | null;
  period: 'monthly' | 'quarterly' | 'annual';
  total_points: number;
  used_points: number;
  remaining_points: number;
  starts_at: string;
  ends_at: string;
}

/**
 * A webhook as the store keeps it: the record of contract §3 plus its `secret`, which the API
 * shows only in the create response and the store always, so tests can verify deliveries.
 */
export interface MockWebhook {
  id: string;
  url: string;
  events: (WebhookEventType | '*')[];
  description: string | null;
  enabled: boolean;
  created_at: string;
  secret: string;
}
