import { parseTreeless } from "../src/links/tree-construction.ts";
for (const html of ["<p>x<frameset><frame></frameset>", "<!doctype html><body>x<frameset>"]) {
const made: string[] = [];
parseTreeless(html, true, { onElement: (e: any) => made.push(e.tagName) });
console.log(html, made.join(","));
}
