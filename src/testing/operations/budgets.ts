import type { Operation } from '../operation.js';
import { getOperation } from './shared.js';

/** GET /v1/budgets: every budget, not paginated. */
export const listBudgets: Operation = ({ store }) => ({
  status: 200,
  body: { data: store.budgets.rows().map((row) => row.record) },
});

/** GET /v1/budgets/{id} */
export const getBudget = getOperation((store) => store.budgets, 'budget');
