/**
 * LinkStream's memory does not grow with what a page holds but links:
 * here, elements with ids (fragment targets, which only a stream asked
 * for them keeps). A child process with a 64 MB heap streams 23 MB of
 * `<p id=…>` (600,000 elements); holding each one fails it.
 */

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const node = path.join(repo, "node_modules/.bin/node");

describe("LinkStream memory", () => {
  it("keeps no element of a page's ids: 600,000 of them stream in a 64 MB heap", () => {
    const script = [
      `import { LinkStream } from ${JSON.stringify(pathToFileURL(path.join(repo, "src/links/index.ts")).href)};`,
      `let links = 0;`,
      `const stream = new LinkStream({ url: "https://example.com/", onLink: () => { links++; } });`,
      `const piece = "<p id=identifier-of-some-length>x <a href=#identifier-of-some-length>y</a></p>\\n".repeat(10000);`,
      `for (let i = 0; i < 60; i++) stream.write(piece);`,
      `stream.end();`,
      `console.log(links);`,
    ].join("\n");
    const run = spawnSync(node, ["--max-old-space-size=64", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 600_000 });
    expect(run.stderr).not.toContain("heap out of memory");
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe("600000");
  }, 600_000);

  it("asked for its fragment targets, keeps their ids and names, bounded, not their elements", () => {
    const script = [
      `import { LinkStream } from ${JSON.stringify(pathToFileURL(path.join(repo, "src/links/index.ts")).href)};`,
      `const told = [];`,
      `for (const distinct of [false, true]) {`,
      `  const stream = new LinkStream({ url: "https://example.com/", onLink: () => {} }, { maxTargetChars: 1 << 20, onTargets: (t) => told.push(t === null ? null : t.ids.size) });`,
      `  // 600,000 elements with ids: the same one, or each its own (10 M characters, past the bound).`,
      `  for (let i = 0; i < 60; i++) {`,
      `    let piece = "";`,
      `    for (let k = 0; k < 10000; k++) piece += distinct ? \`<p id=identifier-\${i}-\${k}>x</p>\n\` : "<p id=identifier-of-some-length>x</p>\\n";`,
      `    stream.write(piece);`,
      `  }`,
      `  stream.end();`,
      `}`,
      `console.log(JSON.stringify(told));`,
    ].join("\n");
    const run = spawnSync(node, ["--max-old-space-size=64", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 600_000 });
    expect(run.stderr).not.toContain("heap out of memory");
    expect(run.status, run.stderr).toBe(0);
    // One id; then past the bound: unknown.
    expect(run.stdout.trim()).toBe("[1,null]");
  }, 600_000);
});
