// Personal data in a recording: emails by their field or their form, names by the fields that
// hold them, each a consistent pseudonym; ids, other fields and the words around them kept.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

const UUID = '7d3b0c52-abed-4c6e-9d0a-6a1f2b3cface';

/** The answer's body after a redaction of one answer to `url`. */
function answerAfter(url: string, responseBody: unknown, options = {}): Record<string, unknown> {
  const entry = createRedactor(options).redact(entryOf({ url, responseBody }))!;
  return JSON.parse(entry.response.content.text!);
}

describe('personal data in a recording', () => {
  it('pseudonymises the value of every email-named field, an address or not, at any depth', () => {
    const body = answerAfter('https://api.example/v1/other', {
      email: 'not an address',
      Work_Email: 'w@x.example',
      'e-mail': 'e1',
      mail: 'm1',
      nested: [{ email_address: 'a1', EmailAddress: 'a2', private_mail: 'a3' }],
      email_verified: 'yes',
      mailbox: 'inbox',
      emails: 'two',
      count_email: 3,
      'work-email': 'w1',
      private_email: null,
      other_email: { primary: 'p1' },
    });
    expect(body).toEqual({
      email: 'person1@redacted.invalid',
      Work_Email: 'person2@redacted.invalid',
      'e-mail': 'person3@redacted.invalid',
      mail: 'person4@redacted.invalid',
      nested: [
        {
          email_address: 'person5@redacted.invalid',
          EmailAddress: 'person6@redacted.invalid',
          private_mail: 'person7@redacted.invalid',
        },
      ],
      email_verified: 'yes',
      mailbox: 'inbox',
      emails: 'two',
      count_email: 3,
      'work-email': 'w1',
      private_email: null,
      other_email: { primary: 'p1' },
    });
  });

  it('gives an address the same pseudonym in any case, and leaves one of its own pseudonyms', () => {
    const body = answerAfter('https://api.example/v1/other', {
      email: 'Ada@Acme.example',
      note: 'ada@acme.EXAMPLE wrote to person9@redacted.invalid and bo@acme.example',
      cc: ['ADA@ACME.EXAMPLE'],
    });
    expect(body).toEqual({
      email: 'person1@redacted.invalid',
      note: 'person1@redacted.invalid wrote to person9@redacted.invalid and person2@redacted.invalid',
      cc: ['person1@redacted.invalid'],
    });
  });

  it('finds an address by its form: any local part, a domain of labels and a top level of letters', () => {
    const body = answerAfter('https://api.example/v1/other', {
      note: 'a.b_c%d+e-f@sub-1.mail.example.co, not@host, not@host.c0m, x@y.z, @alone',
    });
    expect(body.note).toBe('person1@redacted.invalid, not@host, not@host.c0m, x@y.z, @alone');
  });

  it('learns the names of the personal records and the name fields a service adds, in people’s answers only', () => {
    const redactor = createRedactor();
    const users = redactor.redact(
      entryOf({
        url: 'https://api.example/v1/users',
        responseBody: {
          data: [
            {
              id: UUID,
              name: 'Ines Alvarez',
              profile: {
                display_name: 'Kofi',
                FirstName: 'Marta',
                surname: 'Quist',
                nickname: 'Zed',
                team_name: 'Platform',
                names: 'Plural',
                manager: { name: 'Olu' },
                username: 42,
                full_name: { text: 'Kept' },
              },
            },
          ],
        },
      }),
    )!;
    expect(JSON.parse(users.response.content.text!).data[0]).toEqual({
      id: UUID,
      name: 'Person1 Person2',
      profile: {
        display_name: 'Person3',
        FirstName: 'Person4',
        surname: 'Person5',
        nickname: 'Person6',
        team_name: 'Platform',
        names: 'Plural',
        manager: { name: 'Person7' },
        username: 42,
        full_name: { text: 'Kept' },
      },
    });
    // An answer to an operation without personal records teaches nothing.
    const teams = redactor.redact(
      entryOf({
        url: 'https://api.example/v1/teams',
        responseBody: { data: [{ id: UUID, name: 'Platform', display_name: 'Plural' }] },
      }),
    )!;
    expect(JSON.parse(teams.response.content.text!).data[0]).toEqual({
      id: UUID,
      name: 'Platform',
      display_name: 'Plural',
    });
  });

  it('replaces a name as a whole word in any case, its parts split at spaces, commas and hyphens, and leaves ids', () => {
    const redactor = createRedactor();
    redactor.redact(
      entryOf({
        responseBody: {
          data: [{ id: UUID, name: 'Lee-Ann  Abed, ((Jr)) X 7d3b0c5', email: 'l@a.example' }],
        },
      }),
    );
    const out = redactor.redact(
      entryOf({
        url: 'https://api.example/v1/other',
        responseBody: {
          note: `LEE-ANN abed jr, Leeann Abeds ${UUID} x-abed-y X (jr) 7d3b0c5`,
        },
      }),
    )!;
    expect(JSON.parse(out.response.content.text!).note).toBe(
      `Person1 Person4 Person5, Leeann Abeds ${UUID} x-Person4-y X (Person5) Person6`,
    );
  });

  it('keeps every name and address when told personal data may stay', () => {
    const body = answerAfter(
      'https://api.example/v1/users',
      {
        data: [{ id: UUID, name: 'Ines Alvarez', email: 'ines@acme.example' }],
        note: 'a@b.example',
      },
      { personal: false },
    );
    expect(body).toEqual({
      data: [{ id: UUID, name: 'Ines Alvarez', email: 'ines@acme.example' }],
      note: 'a@b.example',
    });
  });

  it('replaces a learned address that its pattern does not read, everywhere and in any case', () => {
    const body = answerAfter('https://api.example/v1/other', {
      email: 'Zoë@acme.example',
      note: 'ZOË@ACME.EXAMPLE and zoë@acme.example',
    });
    expect(body).toEqual({
      email: 'person1@redacted.invalid',
      note: 'person1@redacted.invalid and person1@redacted.invalid',
    });
  });

  it('takes records whose personal fields are empty, and an answer that is null', () => {
    expect(
      answerAfter('https://api.example/v1/users', {
        data: [{ id: UUID, name: null, email: null }],
      }),
    ).toEqual({ data: [{ id: UUID, name: null, email: null }] });
    expect(answerAfter('https://api.example/v1/users', 'null')).toBeNull();
  });

  it('replaces the longest name it knows first, one learned later included', () => {
    const redactor = createRedactor();
    const learn = (name: string) =>
      redactor.redact(entryOf({ responseBody: { data: [{ id: UUID, name, email: null }] } }));
    learn('Ann Li');
    learn('Ann-Marie Li');
    const out = redactor.redact(
      entryOf({ url: 'https://api.example/v1/other', responseBody: { note: 'Ann-Marie and Ann' } }),
    )!;
    expect(JSON.parse(out.response.content.text!).note).toBe('Person3 and Person1');
  });
});
