// The tree construction (src/links/tree-construction.ts and the files of its parts) does work linear in the input on
// deep stacks of open elements: "has an element in … scope", the search for an li, dd or dt to close, "any other end
// tag" answer from records the stack of open elements keeps
// (open-elements.ts), not by walking it. Told by counting work, not by timing it: each document is parsed at size n
// and 4n under V8's precise coverage with block counts, and the block executions in the construction's own scripts
// (every function call and loop iteration) must grow less than 5 times — linear work grows 4 times, a walk of the
// stack per tag 16 (at 237d3d0, before the records, each case gave 15.9).
import { describe, expect, it } from "vitest";
import { blockCounter } from "../block-count.ts";
import { parseTreeless } from "../../src/links/tree-construction.ts";

/** The construction's scripts (the tokenizer, linear on its own, is left out). */
const constructionScripts =
  /\/src\/links\/(?:tree-construction|parse-state|constructed-element|open-elements|active-formatting-elements|adoption-agency|foreign-content|in-head-modes|in-body-mode|in-table-modes)\.ts$/;

interface DeepCase {
  readonly name: string;
  /** The document of size n. */
  readonly make: (n: number) => string;
}

const deepCases: readonly DeepCase[] = [
  // Each div start tag asks for a p in button scope; the button bounds it, at the bottom of the stack.
  { name: "<p><button> and n nested divs", make: (n) => `<p><button>${"<div>".repeat(n)}` },
  // Each </div> asks for a div in scope; the object bounds it.
  { name: "<div><object>, n nested spans, n </div>", make: (n) => `<div><object>${"<span>".repeat(n)}${"</div>".repeat(n)}` },
  // Each dd start tag looks for a dd or dt to close, down to the body.
  { name: "n nested spans, n <dd></dd>", make: (n) => `${"<span>".repeat(n)}${"<dd></dd>".repeat(n)}` },
  // Each end tag of an element that is not open looks for it down to the nearest special element (the body).
  { name: "n nested spans, n </x-y>", make: (n) => `${"<span>".repeat(n)}${"</x-y>".repeat(n)}` },
  { name: "n nested spans, n </em>", make: (n) => `${"<span>".repeat(n)}${"</em>".repeat(n)}` },
];

const size = 20_000;

/** The block executions in the construction's scripts since the last call. */
const takeCount = blockCounter(constructionScripts);

/** The work of one parse: its block executions in the construction. */
function work(html: string): number {
  takeCount();
  expect(parseTreeless(html)).not.toBeNull();
  return takeCount();
}

describe("the tree construction on deep stacks of open elements: linear work", () => {

  it.each(deepCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const small = c.make(size / 4);
    const large = c.make(size);
    parseTreeless(small); // warm-up: lazy compilation is not the input's work
    const smallWork = work(small);
    const largeWork = work(large);
    expect(smallWork, "the construction's scripts are counted").toBeGreaterThan(size / 4);
    const ratio = largeWork / smallWork;
    expect(ratio, `block executions at n = ${size} / at n = ${size / 4}: ${largeWork} / ${smallWork}`).toBeLessThan(5);
  });
});
