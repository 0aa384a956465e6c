import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/testing/routes.js';
import { SCOPES, WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { renderDocument } from '../../scripts/openapi/generate.js';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const document = JSON.parse(committed) as {
  paths: Record<
    string,
    Record<string, { operationId: string; security: Record<string, string[]>[] }>
  >;
  webhooks: Record<string, unknown>;
};

describe('openapi.json', () => {
  it('is what the generator writes from the current source (run `npm run openapi` after a change)', async () => {
    expect(committed).toBe(await renderDocument());
  }, 60_000);

  it('lists the 18 operations of the route table, each with the scope the mock requires', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        operation,
      })),
    );
    expect(operations).toHaveLength(18);
    for (const route of ROUTES) {
      const found = operations.find(
        (operation) => operation.route === `${route.method} ${route.path}`,
      );
      expect(found?.operation.security).toEqual([
        { ApiKey: [route.scope] },
        { OAuth2: [route.scope] },
      ]);
    }
    expect(new Set(ROUTES.map((route) => route.scope))).toEqual(new Set(SCOPES));
  });

  it('describes every event type under webhooks', () => {
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});
