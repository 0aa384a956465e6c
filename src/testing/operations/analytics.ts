import { DEFAULT_PERIOD, PERIOD_MAX_DAYS } from '../../contract.js';
import type { Operation } from '../operation.js';
import { DAY_MS } from '../time.js';
import { HttpError } from '../validation.js';

const PERIOD = /^([1-9]\d{0,2})d$/;

/**
 * GET /v1/analytics/summary: recognitions created in the `period` days up to now.
 * `participation_rate` is the share of active users who sent at least one of them.
 */
export const analyticsSummary: Operation = ({ store, query, now }) => {
  const period = query.get('period') ?? DEFAULT_PERIOD;
  const days = Number(PERIOD.exec(period)?.[1]);
  if (!(days <= PERIOD_MAX_DAYS)) {
    throw new HttpError(400, 'Invalid period.', [
      { field: 'period', message: `must be <N>d with N from 1 to ${PERIOD_MAX_DAYS}` },
    ]);
  }
  const since = now - days * DAY_MS;
  const recognitions = store.recognitions.rows().filter((row) => {
    const time = Date.parse(row.record.created_at);
    return time > since && time <= now;
  });
  const active = store.users.rows().filter((row) => row.record.status === 'active');
  const senders = new Set(recognitions.map((row) => row.record.sender.id));
  const participating = active.filter((row) => senders.has(row.record.id)).length;
  return {
    status: 200,
    body: {
      data: {
        period,
        total_recognitions: recognitions.length,
        participation_rate: active.length
          ? Math.round((participating / active.length) * 1000) / 10
          : 0,
        total_points: recognitions.reduce((sum, row) => sum + row.record.points, 0),
      },
    },
  };
};
