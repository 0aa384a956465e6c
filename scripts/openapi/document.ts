/**
 * Builds the OpenAPI 3.1 document of the Employee Recognition API from the SDK's own source:
 * - record and input schemas: the zod/mini schemas of src/resources (structure), with formats,
 *   bounds and enumerations from src/contract.ts, each input bound proven against the schema;
 * - descriptions: the doc comments of the SDK's public interfaces;
 * - operations, methods, paths and scopes: the mock's route table (src/testing/routes.ts), which
 *   the SDK's resource tests drive, so a path the SDK calls and the document lists are one;
 * - headers, error codes, paging bounds, event types: src/contract.ts;
 * - examples: the mock's answers (examples.ts).
 * Nothing here restates a fact that has a home in src/: what is written here is what only the
 * document needs (summaries, the operation ↔ SDK method names, how sections are laid out).
 */
import type * as z from 'zod/mini';
import {
  API_VERSION_PREFIX,
  DEFAULT_BASE_URL,
  DEFAULT_PERIOD,
  DEFAULT_RATE_LIMIT_TIER,
  ERROR_CODES,
  HEADER_IDEMPOTENCY_KEY,
  HEADER_RATE_LIMIT_LIMIT,
  HEADER_RATE_LIMIT_REMAINING,
  HEADER_RATE_LIMIT_RESET,
  HEADER_REQUEST_ID,
  HEADER_RETRY_AFTER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_WINDOW_MS,
  MESSAGE_MAX_LENGTH,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  PERIOD_MAX_DAYS,
  POINTS_MAX,
  SCOPES,
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADER_ID,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEventType,
} from '../../src/contract.js';
import { pageSchema } from '../../src/core/resource.js';
import { analyticsParamsSchema, analyticsSummarySchema } from '../../src/resources/analytics.js';
import { type Budget, budgetSchema } from '../../src/resources/budgets.js';
import {
  participantSchema,
  recognitionCreateParamsSchema,
  recognitionListParamsSchema,
  recognitionSchema,
} from '../../src/resources/recognitions.js';
import { rewardSchema } from '../../src/resources/rewards.js';
import { pageParamsSchema, pageParamsShape } from '../../src/resources/shared.js';
import { teamSchema } from '../../src/resources/teams.js';
import { type User, userSchema } from '../../src/resources/users.js';
import {
  webhookCreateParamsSchema,
  webhookSchema,
  webhookUpdateParamsSchema,
  webhookWithSecretSchema,
} from '../../src/resources/webhooks.js';
import { ROUTES } from '../../src/testing/routes.js';
import { version } from '../../package.json' with { type: 'json' };
import { commentsOf, type InterfaceComments } from './comments.js';
import { collectExamples, type Examples } from './examples.js';
import { type JsonSchema, type ObjectFacts, toJsonSchema } from './schemas.js';

type Document = JsonSchema;

const RESOURCES = 'src/resources/';

// The known values of each open enumeration, as the SDK's public interfaces declare them: the
// compiler holds each list to its interface (every value, nothing else), and the generator proves
// the list against the schema's own.
type Known<T> = T extends string ? (string extends T ? never : T) : never;
function allOf<T extends string>() {
  return <const L extends readonly T[]>(
    values: L & ([T] extends [L[number]] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L => values;
}
const USER_ROLES = allOf<Known<User['role']>>()(['admin', 'manager', 'member']);
const USER_STATUSES = allOf<Known<User['status']>>()(['active', 'deactivated']);
const BUDGET_PERIODS = allOf<Known<Budget['period']>>()(['monthly', 'quarterly', 'annual']);
const MAY_GAIN_VALUES = 'Further values may be added: clients should accept any string.';

// `<N>d` with N from 1 to PERIOD_MAX_DAYS (contract §4), as a pattern, checked against what the
// SDK's own schema accepts for every N up to twice the bound.
const PERIOD_PATTERN = `^(${upTo(PERIOD_MAX_DAYS)})d$`;
for (let days = 0; days <= 2 * PERIOD_MAX_DAYS; days++) {
  const period = `${days}d`;
  if (
    new RegExp(PERIOD_PATTERN).test(period) !== analyticsParamsSchema.safeParse({ period }).success
  ) {
    throw new Error(`openapi: the period pattern and the SDK disagree on ${period}`);
  }
}

/** A regular expression for the whole numbers 1 to `max`, without leading zeros. */
function upTo(max: number): string {
  const digits = String(max);
  const alternatives = digits.length > 1 ? [`[1-9][0-9]{0,${digits.length - 2}}`] : [];
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0;
    const high = Number(digits[i]) - 1;
    if (high < low) continue;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}[${low}-${high}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return alternatives.join('|');
}

/** A record or input component: its schema, the interface that documents it, and contract facts. */
interface Component {
  schema: z.ZodMiniType;
  file: string;
  facts?: ObjectFacts;
  direction: 'input' | 'output';
}

const NON_NEGATIVE = { minimum: 0 };

const RECORDS: Record<string, Component> = {
  RecognitionParticipant: {
    schema: participantSchema,
    file: 'recognitions.ts',
    direction: 'output',
  },
  Recognition: {
    schema: recognitionSchema,
    file: 'recognitions.ts',
    direction: 'output',
    facts: { points: NON_NEGATIVE },
  },
  User: {
    schema: userSchema,
    file: 'users.ts',
    direction: 'output',
    facts: {
      email: { format: 'email' },
      role: { enum: [...USER_ROLES] },
      status: { enum: [...USER_STATUSES] },
    },
  },
  Reward: {
    schema: rewardSchema,
    file: 'rewards.ts',
    direction: 'output',
    facts: { cost: NON_NEGATIVE },
  },
  Team: {
    schema: teamSchema,
    file: 'teams.ts',
    direction: 'output',
    facts: { member_count: NON_NEGATIVE },
  },
  Budget: {
    schema: budgetSchema,
    file: 'budgets.ts',
    direction: 'output',
    facts: {
      period: { enum: [...BUDGET_PERIODS] },
      total_points: NON_NEGATIVE,
      used_points: NON_NEGATIVE,
      remaining_points: NON_NEGATIVE,
    },
  },
  Webhook: {
    schema: webhookSchema,
    file: 'webhooks.ts',
    direction: 'output',
    facts: {
      url: { format: 'uri' },
      events: { items: { enum: [...WEBHOOK_EVENT_TYPES, '*'] }, minItems: 1 },
    },
  },
  WebhookWithSecret: {
    schema: webhookWithSecretSchema,
    file: 'webhooks.ts',
    direction: 'output',
    facts: {
      url: { format: 'uri' },
      events: { items: { enum: [...WEBHOOK_EVENT_TYPES, '*'] }, minItems: 1 },
      secret: { pattern: `^${WEBHOOK_SECRET_PREFIX}` },
    },
  },
  AnalyticsSummary: {
    schema: analyticsSummarySchema,
    file: 'analytics.ts',
    direction: 'output',
    facts: {
      period: { pattern: PERIOD_PATTERN, examples: [DEFAULT_PERIOD] },
      total_recognitions: NON_NEGATIVE,
      participation_rate: { minimum: 0, maximum: 100 },
      total_points: NON_NEGATIVE,
    },
  },
  RecognitionCreateParams: {
    schema: recognitionCreateParamsSchema,
    file: 'recognitions.ts',
    direction: 'input',
    facts: {
      recipient_id: { format: 'uuid' },
      // Counted after trimming by the service; the schema's plain length is the nearest bound.
      message: { minLength: 1, maxLength: MESSAGE_MAX_LENGTH, pattern: '\\S' },
      points: { minimum: 0, maximum: POINTS_MAX, default: 0, notNull: true },
    },
  },
  WebhookCreateParams: {
    schema: webhookCreateParamsSchema,
    file: 'webhooks.ts',
    direction: 'input',
    facts: {
      url: { format: 'uri' },
      events: {
        items: { minLength: 1, examples: [...WEBHOOK_EVENT_TYPES.slice(0, 1), '*'] },
        minItems: 1,
      },
    },
  },
  WebhookUpdateParams: {
    schema: webhookUpdateParamsSchema,
    file: 'webhooks.ts',
    direction: 'input',
    facts: {
      url: { format: 'uri' },
      events: { items: { minLength: 1 }, minItems: 1 },
    },
  },
};

// Query parameters of operations beyond paging, with the contract's formats.
const QUERY_FACTS: ObjectFacts = {
  page: { minimum: 1, default: 1 },
  limit: { minimum: PAGE_LIMIT_MIN, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
  cursor: { minLength: 1 },
  from: {
    anyOf: [
      { type: 'string', format: 'date' },
      { type: 'string', format: 'date-time' },
    ],
  },
  to: {
    anyOf: [
      { type: 'string', format: 'date' },
      { type: 'string', format: 'date-time' },
    ],
  },
  sender_id: { format: 'uuid' },
  recipient_id: { format: 'uuid' },
  period: {
    pattern: PERIOD_PATTERN,
    default: DEFAULT_PERIOD,
    description: `The period to summarize: \`<N>d\`, the last N days, N from 1 to ${PERIOD_MAX_DAYS}.`,
  },
};

interface OperationSpec {
  /** `namespace_method`, as the SDK method `namespace.method`. */
  id: string;
  /** `METHOD path` as in the route table. */
  route: string;
  summary: string;
  query?: z.ZodMiniType;
  /** The interface whose comments describe the query parameters. */
  queryComments?: InterfaceComments;
  body?: string;
  /** The success body: a component name, wrapped as `{data}`, a page, or a list in `{data}`. */
  returns?: { record: string; as: 'data' | 'page' | 'list' };
}

const OPERATIONS: OperationSpec[] = [
  {
    id: 'recognitions_list',
    route: 'GET /v1/recognitions',
    summary: 'List recognitions',
    query: recognitionListParamsSchema,
    queryComments: commentsOf(`${RESOURCES}recognitions.ts`, 'RecognitionListParams'),
    returns: { record: 'Recognition', as: 'page' },
  },
  {
    id: 'recognitions_create',
    route: 'POST /v1/recognitions',
    summary: 'Recognize a user',
    body: 'RecognitionCreateParams',
    returns: { record: 'Recognition', as: 'data' },
  },
  {
    id: 'recognitions_get',
    route: 'GET /v1/recognitions/:id',
    summary: 'Get a recognition',
    returns: { record: 'Recognition', as: 'data' },
  },
  {
    id: 'recognitions_delete',
    route: 'DELETE /v1/recognitions/:id',
    summary: 'Delete a recognition',
  },
  ...(['users', 'rewards', 'teams'] as const).flatMap((namespace) => {
    const record = { users: 'User', rewards: 'Reward', teams: 'Team' }[namespace];
    return [
      {
        id: `${namespace}_list`,
        route: `GET /v1/${namespace}`,
        summary: `List ${namespace}`,
        query: pageParamsSchema,
        queryComments: commentsOf('src/core/pagination.ts', 'PageParams'),
        returns: { record, as: 'page' as const },
      },
      {
        id: `${namespace}_get`,
        route: `GET /v1/${namespace}/:id`,
        summary: `Get a ${record.toLowerCase()}`,
        returns: { record, as: 'data' as const },
      },
    ];
  }),
  {
    id: 'webhooks_list',
    route: 'GET /v1/webhooks',
    summary: 'List webhooks (not paginated)',
    returns: { record: 'Webhook', as: 'list' },
  },
  {
    id: 'webhooks_create',
    route: 'POST /v1/webhooks',
    summary: 'Register a webhook',
    body: 'WebhookCreateParams',
    returns: { record: 'WebhookWithSecret', as: 'data' },
  },
  {
    id: 'webhooks_get',
    route: 'GET /v1/webhooks/:id',
    summary: 'Get a webhook',
    returns: { record: 'Webhook', as: 'data' },
  },
  {
    id: 'webhooks_update',
    route: 'PATCH /v1/webhooks/:id',
    summary: 'Change a webhook',
    body: 'WebhookUpdateParams',
    returns: { record: 'Webhook', as: 'data' },
  },
  { id: 'webhooks_delete', route: 'DELETE /v1/webhooks/:id', summary: 'Delete a webhook' },
  {
    id: 'budgets_list',
    route: 'GET /v1/budgets',
    summary: 'List budgets (not paginated)',
    returns: { record: 'Budget', as: 'list' },
  },
  {
    id: 'budgets_get',
    route: 'GET /v1/budgets/:id',
    summary: 'Get a budget',
    returns: { record: 'Budget', as: 'data' },
  },
  {
    id: 'analytics_summary',
    route: 'GET /v1/analytics/summary',
    summary: 'Get the analytics summary of a period',
    query: analyticsParamsSchema,
    returns: { record: 'AnalyticsSummary', as: 'data' },
  },
];

const TAGS: Record<string, string> = {
  recognitions: 'Recognitions: praise with points from one user to another.',
  users: 'Users: the members of the organization.',
  rewards: 'Rewards: what users can obtain with their points.',
  teams: 'Teams: groups of users.',
  webhooks: 'Webhooks: the endpoints that receive event deliveries.',
  budgets: 'Budgets: the points available for recognitions in a period.',
  analytics: 'Analytics: aggregated recognition statistics.',
  events: 'Events delivered to registered webhooks (Standard Webhooks).',
};

// The component an event's `data` holds: its group's record, `{team, user}` for team member
// events (contract §9, WebhookEventDataMap in src/webhooks/events.ts).
const EVENT_DATA: Record<WebhookEventType, string> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    type.startsWith('team.member_')
      ? 'TeamMemberEventData'
      : {
          recognition: 'Recognition',
          user: 'User',
          reward: 'Reward',
          team: 'Team',
          budget: 'Budget',
        }[type.slice(0, type.indexOf('.'))]!,
  ]),
) as Record<WebhookEventType, string>;

const STATUS_RESPONSES: Record<keyof typeof ERROR_CODES, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'UnprocessableEntity',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'Unavailable',
};

const ERROR_TEXT: Record<keyof typeof ERROR_CODES, string> = {
  400: 'Invalid request parameters, such as a `page` or `limit` out of bounds.',
  401: 'Missing, malformed, unknown or expired credential.',
  403: 'A valid credential without the scope; the message names the scope.',
  404: 'No record with this id.',
  409: 'The Idempotency-Key was used before with a different body.',
  422: 'The body is not valid; `details` names each field at fault.',
  429: 'Rate limit exceeded: retry after `Retry-After`.',
  500: 'An unexpected error in the service.',
  503: 'The service is unavailable for now.',
};

// The headers of contract §1, §7 and §8, by the name the document shows; each must be the
// contract constant's header (names are case-insensitive).
const HEADERS = {
  'X-Request-Id': {
    constant: HEADER_REQUEST_ID,
    description: 'Identifies the request in the service logs: quote it to support.',
    schema: { type: 'string', examples: ['req_8f14e45fceea167a'] },
  },
  'X-RateLimit-Limit': {
    constant: HEADER_RATE_LIMIT_LIMIT,
    description: `Requests per minute of the key: its tier (10, ${DEFAULT_RATE_LIMIT_TIER} or 1000).`,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    constant: HEADER_RATE_LIMIT_REMAINING,
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    constant: HEADER_RATE_LIMIT_RESET,
    description: 'When the window resets, in Unix seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    constant: HEADER_RETRY_AFTER,
    description: 'How long to wait before retrying: delay-seconds or an HTTP-date.',
    schema: { type: 'string', examples: ['30', 'Sat, 21 Nov 2026 09:31:00 GMT'] },
  },
} as const;
const IDEMPOTENCY_KEY = 'Idempotency-Key';
const IDEMPOTENCY_HOURS = IDEMPOTENCY_WINDOW_MS / 3_600_000;
for (const [name, constant] of [
  ...Object.entries(HEADERS).map(([name, header]) => [name, header.constant] as const),
  [IDEMPOTENCY_KEY, HEADER_IDEMPOTENCY_KEY] as const,
]) {
  if (name.toLowerCase() !== constant) throw new Error(`openapi: ${name} is not ${constant}`);
}

const COMMON_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

// The retry schedule of deliveries, as people say it: 5 s, 5 min … 10 h.
const RETRY_SCHEDULE = WEBHOOK_RETRY_SCHEDULE_SECONDS.map((seconds) =>
  seconds % 3600 === 0
    ? `${seconds / 3600} h`
    : seconds % 60 === 0
      ? `${seconds / 60} min`
      : `${seconds} s`,
).join(', ');

/** The whole document, the same bytes on every run for the same source. */
export async function buildDocument(): Promise<Document> {
  const examples = await collectExamples();
  const routes = new Map(ROUTES.map((route) => [`${route.method} ${route.path}`, route]));
  if (new Set(OPERATIONS.map((operation) => operation.route)).size !== routes.size) {
    throw new Error('openapi: the document must list every route of src/testing/routes.ts once');
  }

  const refs = new Map<z.ZodMiniType, string>(
    Object.entries(RECORDS).map(([name, component]) => [component.schema, name]),
  );
  const pagination = (pageSchema(recognitionSchema) as unknown as PageShape)._zod.def.shape
    .pagination;
  refs.set(pagination, 'Pagination');

  const schemas: Record<string, JsonSchema> = {};
  for (const [name, component] of Object.entries(RECORDS)) {
    const comments = commentsOf(`${RESOURCES}${component.file}`, name);
    const schema = toJsonSchema(component.schema, {
      refs: withoutSelf(refs, component.schema),
      facts: component.facts,
      direction: component.direction,
    });
    schemas[name] = describe(schema, comments);
  }
  schemas.Pagination = describe(
    toJsonSchema(pagination, {
      direction: 'output',
      facts: {
        page: { minimum: 1 },
        total_pages: NON_NEGATIVE,
        next_cursor: {},
      },
    }),
    commentsOf('src/internal/wire.ts', 'Pagination'),
  );
  schemas.ErrorDetail = describe(
    {
      type: 'object',
      properties: { field: { type: 'string' }, message: { type: 'string' } },
      required: ['field', 'message'],
    },
    commentsOf('src/internal/wire.ts', 'ErrorDetail'),
  );
  schemas.Error = errorSchema();
  schemas.TeamMemberEventData = describe(
    {
      type: 'object',
      properties: { team: ref('Team'), user: ref('User') },
      required: ['team', 'user'],
    },
    commentsOf('src/webhooks/events.ts', 'TeamMemberEventData'),
  );
  for (const record of ['Recognition', 'User', 'Reward', 'Team']) {
    schemas[`${record}Page`] = pageComponent(record);
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of OPERATIONS) {
    const route = routes.get(spec.route);
    if (!route) throw new Error(`openapi: no route ${spec.route} in src/testing/routes.ts`);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(
      spec,
      route.method,
      path,
      route.scope,
      examples,
    );
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Employee Recognition API',
      version: `${API_VERSION_PREFIX.slice(2)}.0.0`,
      summary:
        'Peer recognition: recognitions, users, rewards, teams, budgets, webhooks, analytics.',
      description: INFO_DESCRIPTION(version),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: DEFAULT_BASE_URL, description: 'The service (paths start with /v1).' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhooks(examples),
    components: {
      schemas: sortKeys(schemas),
      parameters: parameters(),
      headers: Object.fromEntries(
        Object.entries(HEADERS).map(([name, { description, schema }]) => [
          name,
          // Contract §1, §7: every answer carries them (Retry-After: every 429).
          { description, required: true, schema },
        ]),
      ),
      responses: errorResponses(examples),
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'rk_live_… or rk_test_… API key',
          description:
            'An API key, `rk_live_` or `rk_test_` then at least 24 letters and digits, as `Authorization: Bearer <key>`. A key carries scopes like a token; the scope each operation needs is listed on it.',
        },
        OAuth2: {
          type: 'oauth2',
          description:
            'An OAuth 2.0 access token, as `Authorization: Bearer <token>`. How tokens are obtained is not part of the published service description: the token URL below is a placeholder under the same example domain as the API.',
          flows: {
            clientCredentials: {
              tokenUrl: `${DEFAULT_BASE_URL}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scopeText(scope)])),
            },
          },
        },
      },
    },
  };
}

type PageShape = { _zod: { def: { shape: { pagination: z.ZodMiniType } } } };

function withoutSelf(refs: Map<z.ZodMiniType, string>, self: z.ZodMiniType) {
  const others = new Map(refs);
  others.delete(self);
  return others;
}

function INFO_DESCRIPTION(sdkVersion: string): string {
  return [
    'The REST API of the Employee Recognition service, as the official TypeScript SDK',
    `(\`@employee-recognition/sdk\` ${sdkVersion}) knows it. This document is generated from the`,
    "SDK's own schemas and contract constants; where the published service description is silent,",
    'it states the assumptions the SDK makes (docs/assumptions.md in the SDK).',
    '',
    '**Authentication.** `Authorization: Bearer <credential>`, an API key or an OAuth 2.0 access',
    'token. Each operation lists the scope it needs: 401 for a missing or bad credential, 403 for',
    'a missing scope.',
    '',
    '**Pagination.** Paginated lists answer `{data, pagination: {page, total_pages, next_cursor}}`.',
    'Page mode: ask `page=N`; the last page is `total_pages`, a page beyond it has no data.',
    'Cursor mode: pass the previous `next_cursor` as `cursor`; `null` means the end. Cursors are',
    'stable while records are added; page numbers are not.',
    '',
    '**Errors.** Every non-2xx answer has the body `{error: {code, message, details?}}` and an',
    '`X-Request-Id` header. Codes may gain values.',
    '',
    '**Rate limits.** Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and',
    '`X-RateLimit-Reset`; 429 adds `Retry-After`.',
    '',
    `**Idempotency.** POST and PATCH accept \`Idempotency-Key\` (1–${IDEMPOTENCY_KEY_MAX_LENGTH} characters):`,
    `for ${IDEMPOTENCY_HOURS} hours a repeat with the same body gets the first answer; another body is 409.`,
    '',
    '**Records may gain fields** and enumerations may gain values: clients keep what they do not',
    'know and never fail on it.',
  ].join('\n');
}

function scopeText(scope: string): string {
  const [resource, action] = scope.split(':');
  return action === 'read' ? `Read ${resource}` : `Create, change and delete ${resource}`;
}

function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Adds the interface's comment to the schema and each member's to its property. */
function describe(schema: JsonSchema, comments: InterfaceComments): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const described = properties
    ? Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          withDescription(property, comments.members.get(name)),
        ]),
      )
    : undefined;
  return {
    ...(comments.description ? { description: comments.description } : {}),
    ...schema,
    ...(described ? { properties: described } : {}),
  };
}

function withDescription(property: JsonSchema, text: string | undefined): JsonSchema {
  if (!text) return property;
  const extra = typeof property.description === 'string' ? ` ${property.description}` : '';
  // A $ref's siblings are allowed in OpenAPI 3.1, and describe the use rather than the type.
  return { ...property, description: `${text}${extra}` };
}

function pageComponent(record: string): JsonSchema {
  return {
    description: `One page of ${record.toLowerCase()} records and where it stands in the list.`,
    type: 'object',
    properties: { data: { type: 'array', items: ref(record) }, pagination: ref('Pagination') },
    required: ['data', 'pagination'],
  };
}

function errorSchema(): JsonSchema {
  const body = commentsOf('src/internal/wire.ts', 'ErrorBody');
  return {
    description: body.description,
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: {
            type: 'string',
            description: `Machine-readable code: ${Object.entries(ERROR_CODES)
              .map(([status, code]) => `\`${code}\` (${status})`)
              .join(', ')}. ${MAY_GAIN_VALUES}`,
            examples: [ERROR_CODES[422]],
          },
          message: { type: 'string', description: 'Human-readable text.' },
          details: {
            type: 'array',
            items: ref('ErrorDetail'),
            description: 'Field-level problems, where there are any.',
          },
        },
        required: ['code', 'message'],
      },
    },
    required: ['error'],
  };
}

function parameters(): Record<string, unknown> {
  const paging = commentsOf('src/core/pagination.ts', 'PageParams');
  const params: Record<string, unknown> = {};
  for (const name of Object.keys(pageParamsShape))
    params[name] = queryParameter(pageParamsSchema, name, paging);
  params.id = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The record id: a UUID.',
    schema: { type: 'string', format: 'uuid' },
  };
  params.IdempotencyKey = {
    name: IDEMPOTENCY_KEY,
    in: 'header',
    required: false,
    description: `Makes a retried write happen once: for ${IDEMPOTENCY_HOURS} hours a repeat with the same body gets the first answer, another body 409 \`conflict\`. The SDK sends one on every POST and PATCH.`,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  };
  return params;
}

function queryParameter(
  schema: z.ZodMiniType,
  name: string,
  comments: InterfaceComments | undefined,
): JsonSchema {
  const converted = toJsonSchema(schema, {
    direction: 'input',
    facts: Object.fromEntries(
      Object.keys((schema as unknown as PageShape)._zod.def.shape)
        .filter((field) => field in QUERY_FACTS)
        .map((field) => [field, QUERY_FACTS[field]!]),
    ),
  });
  const property = (converted.properties as Record<string, JsonSchema>)[name]!;
  const { description, ...rest } = property;
  // A parameter the SDK always sends may have a default the service applies when it is absent.
  const required =
    ((converted.required as string[] | undefined) ?? []).includes(name) && !('default' in rest);
  const text = comments?.members.get(name) ?? (description as string | undefined);
  return {
    name,
    in: 'query',
    required,
    ...(text ? { description: text } : {}),
    schema: rest,
  };
}

function operation(
  spec: OperationSpec,
  method: string,
  path: string,
  scope: string,
  examples: Examples,
): JsonSchema {
  const [tag] = spec.id.split('_');
  const parameters: unknown[] = [];
  if (path.includes('{id}')) parameters.push({ $ref: '#/components/parameters/id' });
  if (spec.query) {
    const shape = (spec.query as unknown as PageShape)._zod.def.shape as unknown as Record<
      string,
      unknown
    >;
    for (const name of Object.keys(shape)) {
      const shared = (pageParamsShape as Record<string, unknown>)[name] === shape[name];
      parameters.push(
        shared
          ? { $ref: `#/components/parameters/${name}` }
          : queryParameter(spec.query, name, spec.queryComments),
      );
    }
  }
  if (spec.body) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const status = method === 'POST' ? '201' : method === 'DELETE' ? '204' : '200';
  const example = examples.operations.get(spec.id);
  const success: JsonSchema = {
    description: spec.returns ? successText(spec.returns) : 'Deleted: no body.',
    headers: headerRefs(COMMON_HEADERS),
  };
  if (spec.returns) {
    success.content = {
      'application/json': {
        schema: successSchema(spec.returns),
        ...(example === undefined ? {} : { example }),
      },
    };
  }

  const errors: number[] = [401, 403, 429, 500, 503];
  if (spec.query || spec.body) errors.push(400);
  if (path.includes('{id}')) errors.push(404);
  if (spec.body) errors.push(409, 422);
  errors.sort((a, b) => a - b);

  return {
    operationId: spec.id,
    tags: [tag],
    summary: spec.summary,
    description: `SDK: \`client.${spec.id.replace('_', '.')}()\`. Needs the scope \`${scope}\`.${
      spec.returns?.as === 'page'
        ? ' Paginated: page mode or cursor mode (see the introduction).'
        : ''
    }`,
    security: [{ ApiKey: [scope] }, { OAuth2: [scope] }],
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(spec.body) } },
          },
        }
      : {}),
    responses: {
      [status]: success,
      ...Object.fromEntries(
        errors.map((code) => [
          String(code),
          { $ref: `#/components/responses/${STATUS_RESPONSES[code as keyof typeof ERROR_CODES]}` },
        ]),
      ),
    },
  };
}

function successText(returns: NonNullable<OperationSpec['returns']>): string {
  const name = returns.record.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  if (returns.as === 'page') return `One page of ${name} records.`;
  if (returns.as === 'list') return `Every ${name}, in \`data\`.`;
  return `The ${name}, in \`data\`.`;
}

function successSchema(returns: NonNullable<OperationSpec['returns']>): JsonSchema {
  if (returns.as === 'page') return ref(`${returns.record}Page`);
  return {
    type: 'object',
    properties: {
      data:
        returns.as === 'list' ? { type: 'array', items: ref(returns.record) } : ref(returns.record),
    },
    required: ['data'],
  };
}

function headerRefs(names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function errorResponses(examples: Examples): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(STATUS_RESPONSES).map(([status, name]) => {
      const code = Number(status) as keyof typeof ERROR_CODES;
      const headers = code === 429 ? [...COMMON_HEADERS, 'Retry-After'] : COMMON_HEADERS;
      const example = examples.errors.get(code);
      return [
        name,
        {
          description: `\`${ERROR_CODES[code]}\`: ${ERROR_TEXT[code]}`,
          headers: headerRefs(headers),
          content: {
            'application/json': {
              schema: ref('Error'),
              ...(example === undefined ? {} : { example }),
            },
          },
        },
      ];
    }),
  );
}

function webhooks(examples: Examples): Record<string, unknown> {
  const dataMap = commentsOf('src/webhooks/events.ts', 'WebhookEventDataMap');
  const envelope = commentsOf('src/webhooks/events.ts', 'WebhookEventOf');
  const headers = [
    {
      name: WEBHOOK_HEADER_ID,
      description: 'The event id (`evt_…`), the same on every retry: use it to drop duplicates.',
      schema: { type: 'string' },
    },
    {
      name: WEBHOOK_HEADER_TIMESTAMP,
      description: `Unix seconds of this attempt. Reject a delivery more than ${WEBHOOK_TOLERANCE_SECONDS} s away from your clock.`,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    {
      name: WEBHOOK_HEADER_SIGNATURE,
      description: `Space-separated \`${WEBHOOK_SIGNATURE_VERSION},<base64>\` signatures (several while a secret rotates): base64 of HMAC-SHA256 over \`{webhook-id}.{webhook-timestamp}.{raw body}\`, keyed with the base64-decoded part of the secret after \`${WEBHOOK_SECRET_PREFIX}\`.`,
      schema: { type: 'string', pattern: `^${WEBHOOK_SIGNATURE_VERSION},` },
    },
  ];
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const example = examples.events.get(type);
      return [
        type,
        {
          post: {
            operationId: `event_${type.replace('.', '_')}`,
            tags: ['events'],
            summary: type,
            description:
              `${dataMap.members.get(type) ?? ''} Delivered to webhooks subscribed to \`${type}\` or \`*\`; a non-2xx answer or none within ${WEBHOOK_DELIVERY_TIMEOUT_MS / 1000} s is retried after ${RETRY_SCHEDULE}.`.trim(),
            security: [],
            parameters: headers.map((header) => ({ ...header, in: 'header', required: true })),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      id: {
                        type: 'string',
                        pattern: '^evt_',
                        description: envelope.members.get('id'),
                      },
                      type: { const: type, description: envelope.members.get('type') },
                      created_at: {
                        type: 'string',
                        format: 'date-time',
                        description: envelope.members.get('created_at'),
                      },
                      data: { ...ref(EVENT_DATA[type]), description: envelope.members.get('data') },
                    },
                    required: ['id', 'type', 'created_at', 'data'],
                  },
                  ...(example === undefined ? {} : { example }),
                },
              },
            },
            responses: {
              '2XX': { description: 'Received: the delivery is done.' },
              '4XX': {
                description: 'Refused (for example a bad signature): retried on the schedule.',
              },
            },
          },
        },
      ];
    }),
  );
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
