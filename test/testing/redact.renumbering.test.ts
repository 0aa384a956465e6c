// A recording's pseudonyms renumbered by first appearance, emails and names each in their own
// sequence, and nothing else that only looks like one touched.
import { describe, expect, it } from 'vitest';
import { createRenumbering } from '../../src/testing/redact.js';

describe('the renumbering of pseudonyms', () => {
  it('numbers emails and names by first appearance, each kind on its own, the same number each time', () => {
    const renumber = createRenumbering();
    expect(renumber('Person7 wrote to person4@redacted.invalid')).toBe(
      'Person1 wrote to person1@redacted.invalid',
    );
    expect(
      renumber('person9@redacted.invalid, Person3 and Person7; person4@redacted.invalid'),
    ).toBe('person2@redacted.invalid, Person2 and Person1; person1@redacted.invalid');
  });

  it('reads a pseudonym’s number whole, however many digits it has', () => {
    expect(createRenumbering()('Person12 Person1 person12@redacted.invalid')).toBe(
      'Person1 Person2 person1@redacted.invalid',
    );
  });

  it('renumbers an email percent-encoded in a query', () => {
    const renumber = createRenumbering();
    expect(renumber('?cc=person5%40redacted.invalid&to=person5@redacted.invalid')).toBe(
      '?cc=person1%40redacted.invalid&to=person1@redacted.invalid',
    );
  });

  it('leaves what is not one of its pseudonyms', () => {
    const renumber = createRenumbering();
    for (const text of [
      'person7 has no domain',
      'Person7@redacted.invalid is a name with a domain',
      'Superson2 xPerson2 Person2x 3Person2 Person21b',
      'person2@redacted.invalidx',
      'PERSON2 and person2@redacted.example',
    ]) {
      expect(renumber(text)).toBe(text);
    }
  });

  it('renumbers a pseudonym beside other text that is no letter or digit', () => {
    expect(createRenumbering()('"Person8", (person8@redacted.invalid)-_Person9.')).toBe(
      '"Person1", (person1@redacted.invalid)-_Person2.',
    );
  });
});
