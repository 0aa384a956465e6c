// The record types come from the zod schemas in src/resources, their one source. `import type`
// is erased at build time, so a receiver's bundle carries no schema or validation code.
export type { Budget } from '../resources/budgets.js';
export type { Recognition, RecognitionParticipant } from '../resources/recognitions.js';
export type { Reward } from '../resources/rewards.js';
export type { Team } from '../resources/teams.js';
export type { User } from '../resources/users.js';
