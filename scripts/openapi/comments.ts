/**
 * The doc comments of the SDK's public interfaces, read with the TypeScript parser: the document
 * describes records, fields, parameters and events in the words the SDK's reference uses, so
 * neither can drift from the other.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** An interface's own comment and the comment of each of its members, by member name. */
export interface InterfaceComments {
  description: string;
  members: Map<string, string>;
}

const root = new URL('../../', import.meta.url);
const cache = new Map<string, Map<string, InterfaceComments>>();

/** The comments of interface `name` in `file` (a path from the repository root). */
export function commentsOf(file: string, name: string): InterfaceComments {
  let interfaces = cache.get(file);
  if (!interfaces) {
    interfaces = readInterfaces(file);
    cache.set(file, interfaces);
  }
  const found = interfaces.get(name);
  if (!found) throw new Error(`openapi: no interface ${name} in ${file}`);
  return found;
}

function readInterfaces(file: string): Map<string, InterfaceComments> {
  const text = readFileSync(new URL(file, root), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, InterfaceComments>();
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const members = new Map<string, string>();
    for (const member of statement.members) {
      if (!member.name) continue;
      const name =
        ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)
          ? member.name.text
          : undefined;
      const comment = commentOf(member);
      if (name !== undefined && comment) members.set(name, comment);
    }
    // The first paragraph: what follows speaks to TypeScript readers (casts, type parameters).
    const [summary = ''] = commentOf(statement).split('\n\n');
    interfaces.set(statement.name.text, { description: summary, members });
  }
  return interfaces;
}

function commentOf(node: ts.Node): string {
  const text = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .join('\n');
  // `{@link Users.list}` names an SDK method: the document names it as called, on a client.
  // References to the contract's sections point into the SDK's repository: dropped. Lines
  // wrapped in the source are joined; paragraphs stay.
  return text
    .replace(
      /\{@link\s+([A-Z])(\w*)\.(\w+)[^}]*\}/g,
      (_, initial: string, rest: string, method: string) =>
        `\`client.${initial.toLowerCase()}${rest}.${method}()\``,
    )
    .replace(/\{@link\s+([^}\s|]+)[^}]*\}/g, '`$1`')
    .replace(/ \(contract §[\d, §]+\)/g, '')
    .replace(/([^\n])\n(?!\n)/g, '$1 ')
    .trim();
}
