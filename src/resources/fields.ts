/**
 * What the records' fields hold beyond their types, beside the schemas of this folder: the one
 * list that a recording's redaction (src/testing/redact.ts), `employee-recognition traffic`, the
 * doctor and docs/testing.md read. Each list is keyed by the operations' group (`users` for
 * `users.list` and `users.get`); a path names a field of one record, below the answer's `data`
 * (each item of a list alike), `sender.name` a nested one and `events[]` an array's items.
 */

/**
 * Personal data (docs/testing.md, "What is redacted"): a name field's value, and each part of it,
 * becomes a consistent pseudonym wherever it appears (free text such as a recognition's `message`
 * or a record's `description` included); so does an email. Ids are not personal.
 */
export const PERSONAL_FIELDS: Readonly<
  Record<string, { readonly names?: readonly string[]; readonly emails?: readonly string[] }>
> = {
  recognitions: { names: ['sender.name', 'recipient.name'] },
  users: { names: ['name'], emails: ['email'] },
};

/** A personal field found in an answer: the object that holds it, its key, and what it holds. */
interface PersonalField {
  parent: Record<string, unknown>;
  key: string;
  /** Its path in {@link PERSONAL_FIELDS}, such as `sender.name`. */
  path: string;
  kind: 'name' | 'email';
}

/**
 * The personal fields of the records in an answer's body to one of `group`'s operations (the
 * record of `data`, or each of a list's), those the record holds.
 */
export function personalFieldsOf(group: string | undefined, body: unknown): PersonalField[] {
  const fields = group === undefined ? undefined : PERSONAL_FIELDS[group];
  const data = (body as { data?: unknown } | null | undefined)?.data;
  if (!fields || data === null || typeof data !== 'object') return [];
  const paths = [
    ...(fields.names ?? []).map((path) => [path, 'name'] as const),
    ...(fields.emails ?? []).map((path) => [path, 'email'] as const),
  ];
  const found: PersonalField[] = [];
  for (const record of Array.isArray(data) ? data : [data]) {
    for (const [path, kind] of paths) {
      const keys = path.split('.');
      const parent = keys
        .slice(0, -1)
        .reduce<unknown>(
          (node, key) =>
            node !== null && typeof node === 'object'
              ? (node as Record<string, unknown>)[key]
              : undefined,
          record,
        );
      if (parent !== null && typeof parent === 'object' && keys.at(-1)! in parent) {
        found.push({ parent: parent as Record<string, unknown>, key: keys.at(-1)!, path, kind });
      }
    }
  }
  return found;
}

/**
 * Fields whose values form a set the SDK knows and the service may extend (`openEnum` in this
 * folder's schemas): `traffic diff` reports a value one recording has and the other not.
 */
export const ENUM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  budgets: ['period'],
  users: ['role', 'status'],
  webhooks: ['events[]'],
};
