/**
 * The strict record check issue 41 reuses: each difference by operation, path and problem, with
 * the docs/assumptions.md row it breaks; undeclared fields as new; names and types, never values.
 */
import { readFileSync } from 'node:fs';
import { checkRecords } from '@employee-recognition/sdk/doctor';
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, RECORD_ASSUMPTIONS } from '../../src/doctor/assumptions.js';

const user = {
  id: '0b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11',
  name: 'Ana Secret-Name',
  email: 'ana@secret.example',
  role: 'member',
  status: 'active',
  team_id: null,
  points_balance: 40,
  created_at: '2026-11-21T09:30:00Z',
};

describe('checkRecords', () => {
  it('finds nothing in a record as the SDK declares it', () => {
    expect(checkRecords('users.get', { data: user })).toEqual({
      differences: [],
      newFields: [],
      unknownValues: [],
    });
    expect(checkRecords('users.list', { data: [user, user], pagination: { page: 1 } })).toEqual({
      differences: [],
      newFields: [],
      unknownValues: [],
    });
  });

  it('names a renamed field as a difference and a new field, once for a whole list', () => {
    const { created_at, ...rest } = user;
    const renamed = {
      ...rest,
      createdAt: created_at,
      points_balance: '40',
      role: 'owner-secret-role',
    };
    const found = checkRecords('users.list', { data: [renamed, renamed] });
    expect(found.differences).toEqual([
      {
        operation: 'users.list',
        path: 'data.*.role',
        problem: 'holds a value this SDK does not know (it knows admin, manager, member)',
        assumption: 'user-role',
      },
      {
        operation: 'users.list',
        path: 'data.*.points_balance',
        problem: 'is a string, but the SDK assumes a number',
        assumption: 'user-points-balance',
      },
      {
        operation: 'users.list',
        path: 'data.*.created_at',
        problem: 'is missing, but the SDK assumes a string',
        assumption: 'user-created-at',
      },
    ]);
    expect(found.newFields).toEqual([
      { operation: 'users.list', path: 'data.*.createdAt', type: 'string' },
    ]);
    // The SDK reads the role as an open enumeration: a note for the checks, not a failure.
    expect(found.unknownValues).toEqual([found.differences[0]]);
    expect(JSON.stringify(found)).not.toMatch(/Ana|secret|owner/);
  });

  it('walks nested records: a recognition’s sender', () => {
    const found = checkRecords('recognitions.get', {
      data: {
        id: 'r',
        sender: { id: 7, name: 'A', pronouns: 'they' },
        recipient: { id: 'u', name: 'B' },
        message: 'm',
        points: 1.5,
        created_at: 't',
      },
    });
    expect(found.differences.map(({ path, assumption }) => [path, assumption])).toEqual([
      ['data.sender.id', 'recognition-party-ids'],
      ['data.points', 'recognition-points'],
    ]);
    expect(found.differences[1]!.problem).toBe(
      'is a number, but the SDK assumes it must be an integer',
    );
    expect(found.newFields).toEqual([
      { operation: 'recognitions.get', path: 'data.sender.pronouns', type: 'string' },
    ]);
  });

  it('says null is allowed where the SDK allows it', () => {
    const { team_id: _team, ...rest } = user;
    expect(checkRecords('users.get', { data: rest }).differences).toEqual([
      expect.objectContaining({
        path: 'data.team_id',
        problem: 'is missing, but the SDK assumes a string or null',
      }),
    ]);
  });

  it('reports a missing data envelope, and nothing for an operation without records', () => {
    expect(checkRecords('teams.get', { team: {} }).differences).toEqual([
      expect.objectContaining({
        path: 'data',
        problem: 'is missing, but the SDK assumes an object',
        assumption: 'record-teams',
      }),
    ]);
    expect(checkRecords('recognitions.delete', undefined)).toEqual({
      differences: [],
      newFields: [],
      unknownValues: [],
    });
  });

  it('names only anchors docs/assumptions.md has', () => {
    const doc = readFileSync(new URL('../../docs/assumptions.md', import.meta.url), 'utf8');
    const anchors = [
      ...Object.values(ASSUMPTIONS),
      ...Object.values(RECORD_ASSUMPTIONS).flatMap(({ record, fields }) => [
        record,
        ...Object.values(fields),
      ]),
    ];
    const headings = [...doc.matchAll(/^#+ (.+)$/gm)].map(([, title]) =>
      title!
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s/g, '-'),
    );
    for (const anchor of new Set(anchors)) {
      expect(doc.includes(`<a id="${anchor}"></a>`) || headings.includes(anchor), anchor).toBe(
        true,
      );
    }
  });
});
