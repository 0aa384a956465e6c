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

/**
 * Fields whose values form a set the SDK knows and the service may extend (`openEnum` in this
 * folder's schemas): `traffic diff` reports a value one recording has and the other not.
 */
export const ENUM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  budgets: ['period'],
  users: ['role', 'status'],
  webhooks: ['events[]'],
};
