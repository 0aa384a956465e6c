import type { MockServer } from '@employee-recognition/sdk/testing';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** What a tool call returned, as the official client hands it over (its output schema checked). */
export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/** Calls a tool and returns its result; the official client checks it against the output schema. */
export async function call(
  client: McpClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The error a failed call reports, parsed from its text. */
export function errorOf(result: ToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [content] = result.content;
  expect(content?.type).toBe('text');
  return (JSON.parse((content as { text: string }).text) as { error: Record<string, unknown> })
    .error;
}

/** A call's structured result, after checking it succeeded and its text says the same. */
export function dataOf(result: ToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  const structured = result.structuredContent!;
  const text = (result.content[0] as { text: string }).text;
  // The text form ends with the same JSON, for clients that show only text.
  expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual(structured);
  return structured;
}

/**
 * Calls each of the 18 tools once against the mock, writes included, each with arguments a model
 * would send, and checks what each returns against the mock's own store. Returns every result.
 */
export async function callEveryTool(client: McpClient, mock: MockServer): Promise<ToolResult[]> {
  const { store } = mock.api;
  const results: ToolResult[] = [];
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    results.push(result);
    return dataOf(result);
  };
  const first = <T>(items: T[]) => items[0]!;

  const recognitions = await run('recognitions_list', { limit: 3 });
  expect(recognitions.data).toHaveLength(3);
  expect(typeof recognitions.next_cursor).toBe('string');
  const someRecognition = first(store.recognitions.all());
  expect((await run('recognitions_get', { id: someRecognition.id })).data).toMatchObject({
    id: someRecognition.id,
  });

  const users = await run('users_list', { limit: 5 });
  const recipient = (users.data as { id: string }[])[1]!;
  expect((await run('users_get', { id: recipient.id })).data).toMatchObject(recipient);

  const rewards = await run('rewards_list');
  const reward = first(rewards.data as { id: string }[]);
  expect((await run('rewards_get', { id: reward.id })).data).toMatchObject(reward);

  const teams = await run('teams_list');
  const team = first(teams.data as { id: string }[]);
  expect((await run('teams_get', { id: team.id })).data).toMatchObject(team);

  const budgets = await run('budgets_list');
  expect(budgets).not.toHaveProperty('next_cursor');
  const budget = first(budgets.data as { id: string }[]);
  expect((await run('budgets_get', { id: budget.id })).data).toMatchObject(budget);

  const summary = await run('analytics_summary', { period: '90d' });
  expect(summary.data).toMatchObject({ period: '90d' });

  const created = await run('recognitions_create', {
    recipient_id: recipient.id,
    message: 'Thank you for the launch, it went smoothly!',
    points: 20,
    idempotency_key: 'launch-thanks-1',
  });
  const recognition = created.data as { id: string; points: number };
  expect(recognition.points).toBe(20);
  expect(store.recognitions.get(recognition.id)).toBeDefined();
  expect(await run('recognitions_delete', { id: recognition.id })).toEqual({
    deleted: true,
    id: recognition.id,
  });
  expect(store.recognitions.get(recognition.id)).toBeUndefined();

  const webhook = (
    await run('webhooks_create', {
      url: 'https://hooks.example.com/recognition',
      events: ['recognition.created'],
      description: 'Team channel',
    })
  ).data as { id: string };
  expect(webhook).not.toHaveProperty('secret');
  expect((await run('webhooks_list')).data).toContainEqual(webhook);
  expect((await run('webhooks_get', { id: webhook.id })).data).toEqual(webhook);
  const updated = await run('webhooks_update', { id: webhook.id, enabled: false });
  expect(updated.data).toMatchObject({ id: webhook.id, enabled: false });
  expect(await run('webhooks_delete', { id: webhook.id })).toEqual({
    deleted: true,
    id: webhook.id,
  });
  expect(store.webhooks.get(webhook.id)).toBeUndefined();

  expect(results).toHaveLength(18);
  return results;
}

/**
 * Secrets that must never show: the mock's API key, any API key or webhook secret shape, and a
 * bearer credential.
 */
export function expectNoSecret(text: string, apiKey: string): void {
  expect(text).not.toContain(apiKey);
  expect(text).not.toMatch(/rk_(?:live|test)_[A-Za-z0-9]{8}|whsec_[A-Za-z0-9+/=]{8}|Bearer \S/);
}
