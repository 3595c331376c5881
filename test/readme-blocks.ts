/**
 * The fenced code blocks of a Markdown text (the README's), for the tests
 * that run them (test/readme.test.ts) and type-check them in a project that
 * installed the package (test/package/consumer.test.ts).
 *
 * @module
 */

/**
 * One fenced code block: its language tag, the line of its opening fence
 * (1-based), its text.
 *
 * @example
 * ```ts
 * const block: Block = { lang: "sh", line: 12, code: "npm install docbase" };
 * ```
 */
export interface Block {
  readonly lang: string;
  readonly line: number;
  readonly code: string;
}

/**
 * Every fenced code block of `markdown`, in order.
 *
 * @example
 * ```ts
 * codeBlocks("text\n```ts\nlet a = 1;\n```\n"); // [{ lang: "ts", line: 2, code: "let a = 1;" }]
 * ```
 */
export function codeBlocks(markdown: string): Block[] {
  const found: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    found.push({ lang: open[1]!, line: start + 1, code: body.join("\n") });
  }
  return found;
}
