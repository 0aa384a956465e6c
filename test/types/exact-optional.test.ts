/**
 * Under `exactOptionalPropertyTypes`, a field written `timeout?: number` refuses an explicit
 * `undefined`, so `{ timeout: config.timeout }` with a `number | undefined` does not compile in a
 * customer's strict project. Every optional field of everything a customer passes to the SDK must
 * therefore say `| undefined`. This walks the public entries (the package names mapped in
 * tsconfig.json, so a new entry is covered once it is mapped) with the compiler's own view of the
 * types: from each export to the parameters of every function, constructor and method, and from
 * each parameter into the fields of its objects, however deep.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const srcDir = new URL('src/', root).pathname;

function publicEntries(): string[] {
  const { config } = ts.readConfigFile(new URL('tsconfig.json', root).pathname, ts.sys.readFile);
  const paths = (config as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions
    .paths;
  return Object.values(paths).map(([path]) => new URL(path!, root).pathname);
}

/** `Type.field` for every optional input field whose declared type leaves out `undefined`. */
function fieldsRefusingUndefined(entries: readonly string[]): string[] {
  const program = ts.createProgram(entries, {
    strict: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    resolveJsonModule: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const ours = (symbol: ts.Symbol | undefined) =>
    symbol?.declarations?.some((d) => d.getSourceFile().fileName.startsWith(srcDir)) ?? false;
  const found = new Set<string>();
  const seenInputs = new Set<ts.Type>();
  const seenApis = new Set<ts.Type>();

  // A type the customer builds and passes in: each optional field must take `undefined`.
  const input = (type: ts.Type): void => {
    if (seenInputs.has(type)) return;
    seenInputs.add(type);
    if (type.isUnionOrIntersection()) return type.types.forEach(input);
    // A list of options, such as the mock's `keys`: each element is input too.
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      return checker.getTypeArguments(type as ts.TypeReference).forEach(input);
    }
    if (!ours(type.getSymbol() ?? type.aliasSymbol)) return;
    // An object with methods of its own, such as a mock handed back to createHandlers, is one
    // the SDK made: its fields are outputs.
    const properties = checker.getPropertiesOfType(type);
    const madeBySdk = properties.some(
      (property) =>
        !(property.flags & ts.SymbolFlags.Optional) &&
        checker.getTypeOfSymbol(property).getCallSignatures().length > 0,
    );
    if (madeBySdk) return api(type);
    for (const property of properties) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration || !ours(property)) continue;
      const declared = checker.getTypeOfSymbol(property);
      if (property.flags & ts.SymbolFlags.Optional) {
        const written = ts.isPropertySignature(declaration) ? declaration.type : undefined;
        const type = written && checker.getTypeFromTypeNode(written);
        const allowsUndefined =
          type !== undefined &&
          (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any) ||
            (type.isUnion() && type.types.some((member) => member.flags & ts.TypeFlags.Undefined)));
        if (!allowsUndefined) {
          const owner = (property as { parent?: ts.Symbol }).parent?.name;
          found.add(`${owner}.${property.name}`);
        }
      }
      // A callback's own parameters are what the SDK hands out, not what it takes in.
      if (declared.getCallSignatures().length === 0) input(checker.getNonNullableType(declared));
    }
  };

  // A value the SDK hands out (a client, a resource, a mock): what its methods take is input.
  const api = (type: ts.Type): void => {
    if (seenApis.has(type)) return;
    seenApis.add(type);
    if (type.isUnionOrIntersection()) return type.types.forEach(api);
    const signatures = [...type.getCallSignatures(), ...type.getConstructSignatures()];
    for (const signature of signatures) {
      for (const parameter of signature.getParameters()) {
        input(checker.getNonNullableType(checker.getTypeOfSymbol(parameter)));
      }
      api(signature.getReturnType());
    }
    if (!ours(type.getSymbol() ?? type.aliasSymbol)) return;
    for (const property of checker.getPropertiesOfType(type)) {
      if (ours(property)) api(checker.getTypeOfSymbol(property));
    }
  };

  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (symbol.flags & ts.SymbolFlags.Value) api(checker.getTypeOfSymbol(symbol));
      // Exported option types are input even where no signature names them directly.
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        const type = checker.getDeclaredTypeOfSymbol(symbol);
        if (/(Options|Params|Init)$/.test(symbol.name)) input(type);
      }
    }
  }
  return [...found].sort();
}

describe('explicit undefined in public options', () => {
  it('every optional field a customer passes in takes an explicit undefined', () => {
    const entries = publicEntries();
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(entries[0]!, 'utf8')).toContain('export');
    expect(fieldsRefusingUndefined(entries)).toEqual([]);
    // A type-check of every entry: a minute, for a busy machine; no figure is asserted.
  }, 60_000);
});
