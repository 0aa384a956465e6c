// Plain interfaces rather than schemas: webhook receivers must not pay for a validation library.
// Records may gain fields and enumerations may gain values (contract §3), hence the index
// signatures and the `(string & {})` members, which keep editor completion for the known values.

/** A user as a recognition names them. */
export interface UserSummary {
  id: string;
  name: string;
  [field: string]: unknown;
}

/** Praise from one user to another, with optional points. */
export interface Recognition {
  id: string;
  sender: UserSummary;
  recipient: UserSummary;
  message: string;
  /** Whole points, 0 or more. */
  points: number;
  /** ISO 8601, UTC. */
  created_at: string;
  [field: string]: unknown;
}

/** A user's role; more roles may appear later. */
export type UserRole = 'admin' | 'manager' | 'member' | (string & {});

/** Whether a user can take part; more states may appear later. */
export type UserStatus = 'active' | 'deactivated' | (string & {});

/** A person in the organisation. */
export interface User {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  status: UserStatus;
  team_id: string | null;
  /** Whole points. */
  points_balance: number;
  /** ISO 8601, UTC. */
  created_at: string;
  [field: string]: unknown;
}

/** Something users can redeem points for. */
export interface Reward {
  id: string;
  name: string;
  description: string | null;
  /** Whole points, 0 or more. */
  cost: number;
  available: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  [field: string]: unknown;
}

/** A group of users. */
export interface Team {
  id: string;
  name: string;
  description: string | null;
  /** Whole number, 0 or more. */
  member_count: number;
  /** ISO 8601, UTC. */
  created_at: string;
  [field: string]: unknown;
}

/** How long a budget runs; more periods may appear later. */
export type BudgetPeriod = 'monthly' | 'quarterly' | 'annual' | (string & {});

/** Points to give during a period, for a team or none (`team_id: null`). */
export interface Budget {
  id: string;
  team_id: string | null;
  period: BudgetPeriod;
  /** Whole points, 0 or more; likewise `used_points` and `remaining_points`. */
  total_points: number;
  used_points: number;
  remaining_points: number;
  /** ISO 8601, UTC. */
  starts_at: string;
  /** ISO 8601, UTC. */
  ends_at: string;
  [field: string]: unknown;
}
