/**
 * The anchors of docs/assumptions.md's rows (`<a id>`), by what the doctor checks: each check's
 * and each record difference's `assumption`, so a report links the row it tests. A test checks
 * that every anchor named here exists in docs/assumptions.md.
 */
export const ASSUMPTIONS = {
  credential: 'api-key-form',
  scopes: 'scopes',
  rateLimit: 'rate-limit-headers',
  clock: 'clock-tolerance',
  webhookScheme: 'webhook-signature',
  errorBody: 'error-body',
  pagination: 'cursor-field',
  records: 'record-fields',
  deprecations: 'deprecation-notices',
  webhooks: 'event-types',
  idempotency: 'idempotency',
} as const;

/** Each record type's anchor and its fields' anchors, by the operations' namespace. */
export const RECORD_ASSUMPTIONS: Readonly<
  Record<string, { record: string; fields: Readonly<Record<string, string>> }>
> = {
  recognitions: {
    record: 'record-recognitions',
    fields: {
      id: 'recognition-id',
      'sender.name': 'recognition-party-names',
      'recipient.name': 'recognition-party-names',
      'sender.id': 'recognition-party-ids',
      'recipient.id': 'recognition-party-ids',
      message: 'recognition-message',
      points: 'recognition-points',
      created_at: 'recognition-created-at',
    },
  },
  users: {
    record: 'record-users',
    fields: {
      id: 'user-identity',
      name: 'user-identity',
      email: 'user-identity',
      role: 'user-role',
      status: 'user-status',
      team_id: 'user-team-id',
      points_balance: 'user-points-balance',
      created_at: 'user-created-at',
    },
  },
  rewards: {
    record: 'record-rewards',
    fields: {
      id: 'reward-identity',
      name: 'reward-identity',
      description: 'reward-description',
      cost: 'reward-cost',
      available: 'reward-available',
      created_at: 'reward-created-at',
    },
  },
  teams: {
    record: 'record-teams',
    fields: {
      id: 'team-identity',
      name: 'team-identity',
      description: 'team-description',
      member_count: 'team-member-count',
      created_at: 'team-created-at',
    },
  },
  budgets: {
    record: 'record-budgets',
    fields: {
      id: 'budget-id',
      team_id: 'budget-team-id',
      period: 'budget-period',
      total_points: 'budget-points',
      used_points: 'budget-points',
      remaining_points: 'budget-points',
      starts_at: 'budget-dates',
      ends_at: 'budget-dates',
    },
  },
  webhooks: {
    record: 'record-webhooks',
    fields: {
      id: 'webhook-id',
      url: 'webhook-url',
      events: 'webhook-events',
      description: 'webhook-description',
      enabled: 'webhook-enabled',
      created_at: 'webhook-created-at',
      secret: 'webhook-secret',
    },
  },
  analytics: {
    record: 'record-analytics-summary',
    fields: {
      total_recognitions: 'analytics-total-recognitions',
      participation_rate: 'analytics-participation-rate',
      period: 'analytics-period',
      total_points: 'analytics-total-points',
    },
  },
};

/**
 * The anchor of the row a field of `operation`'s answer breaks: the field's own row, else its
 * record's (`data.*.sender.name` of `recognitions.list` is `recognition-party-names`).
 */
export function recordAssumption(operation: string, path: string): string {
  const record = RECORD_ASSUMPTIONS[operation.split('.')[0]!];
  if (!record) return ASSUMPTIONS.records;
  const field = path.replace(/^data\.(\*\.)?/, '');
  const fields = record.fields;
  return (
    fields[field] ??
    fields[field.split('.').slice(0, 2).join('.')] ??
    fields[field.split('.')[0]!] ??
    record.record
  );
}
