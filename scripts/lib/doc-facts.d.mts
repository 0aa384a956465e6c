// Types of doc-facts.mjs, for the tests that import it.
export interface PackageFacts {
  name: string;
  nodeFloor: number;
  entries: string[];
  commands(): string[];
  /** Each command's flags, without `--`. */
  commandFlags(): Record<string, string[]>;
  distSize(file: string): number | undefined;
  budgets(): { name: string; size: number }[];
}

export function packageFacts(root: string): PackageFacts;

export function checkFacts(
  file: string,
  markdown: string,
  facts: PackageFacts,
): { problems: { line: number; message: string }[]; held: number };
