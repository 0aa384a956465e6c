// src/tools.json against what it is generated from: the SDK's openapi.json and method comments.
import { readFileSync } from 'node:fs';
import { Client } from '@employee-recognition/sdk';
import { describe, expect, it } from 'vitest';
import { renderTools } from '../scripts/generate-tools.js';
import tools from '../src/tools.json';

describe('src/tools.json', () => {
  it('is what scripts/generate-tools.ts makes of the SDK today (npm run generate)', async () => {
    const committed = readFileSync(new URL('../src/tools.json', import.meta.url), 'utf8');
    expect(committed).toBe(await renderTools());
  });

  it('has one tool per method of the client, named <resource>_<method>', () => {
    const client = new Client({ apiKey: 'rk_test_000000000000000000000000' });
    const methods = Object.entries(client)
      .filter(([, value]) => typeof value === 'object' && value !== null)
      .flatMap(([resource, value]) =>
        Object.getOwnPropertyNames(Object.getPrototypeOf(value))
          .filter((name) => name !== 'constructor')
          .map((name) => `${resource}_${name}`),
      );
    expect(tools.map((tool) => tool.name).sort()).toEqual(methods.sort());
    expect(tools.filter((tool) => tool.access === 'read')).toHaveLength(13);
  });
});
