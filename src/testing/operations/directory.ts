import { getOperation, listOperation } from './shared.js';

/** GET /v1/users */
export const listUsers = listOperation((store) => store.users);
/** GET /v1/users/{id} */
export const getUser = getOperation((store) => store.users, 'user');
/** GET /v1/rewards */
export const listRewards = listOperation((store) => store.rewards);
/** GET /v1/rewards/{id} */
export const getReward = getOperation((store) => store.rewards, 'reward');
/** GET /v1/teams */
export const listTeams = listOperation((store) => store.teams);
/** GET /v1/teams/{id} */
export const getTeam = getOperation((store) => store.teams, 'team');
