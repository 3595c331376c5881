// The lists the tree construction and the reader fill for each document are
// made for objects from the start (object-list.ts): `[]` would be an array of
// small integers whose first push changes its elements kind, and code
// optimised for one document's lists would deoptimise on the next's. The
// kind is read with V8's own test (`%HasObjectElements`, behind
// --allow-natives-syntax) in a child process; `[]` is the control the
// check must tell apart.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

const script = `
import { objectList } from "./src/links/object-list.ts";
import { TreeConstruction } from "./src/links/tree-construction.ts";
import { newBatch } from "./src/links/read-document.ts";
const construction = new TreeConstruction(true);
const batch = newBatch(true);
const lists = {
  control: [],
  objectList: objectList(),
  tags: construction.tags,
  targetCandidates: construction.targetCandidates,
  openElements: construction.open.items,
  activeFormattingElements: construction.formatting.entries,
  links: batch.links,
  sites: batch.sites,
};
const kinds = {};
for (const [name, list] of Object.entries(lists)) kinds[name] = { objects: %HasObjectElements(list), length: list.length };
const a = objectList();
a.push({});
kinds.independent = objectList().length === 0;
console.log(JSON.stringify(kinds));
`;

it("makes each document's lists with the elements kind of objects, before anything is pushed", () => {
  const run = spawnSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
  expect(run.stderr).toBe("");
  const kinds = JSON.parse(run.stdout) as Record<string, { objects: boolean; length: number } | boolean>;
  expect(kinds["control"]).toEqual({ objects: false, length: 0 });
  for (const name of ["objectList", "tags", "targetCandidates", "openElements", "activeFormattingElements", "links", "sites"]) {
    expect([name, kinds[name]]).toEqual([name, { objects: true, length: 0 }]);
  }
  expect(kinds["independent"]).toBe(true);
});
