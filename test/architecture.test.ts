/**
 * The layout as docs/ARCHITECTURE.md draws it, checked: layers import only
 * downward, no file of src/ imports itself back through others (type
 * imports included), every source file opens with its job, and
 * docs/ARCHITECTURE.md gives a line to every source file and to none that
 * is gone.
 *
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const src = path.join(repo, "src");

/** The layers, lowest first: a file may import its own layer and those before it. */
const layers = ["core", "html", "document-base", "url-utils", "links", "jsdom", "cli"] as const;
/** Layers that sit side by side: neither imports the other. */
const siblings = new Set(["links>jsdom", "jsdom>links", "jsdom>cli"]);

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(file));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(file);
  }
  return files.sort();
}

const files = sourceFiles(src);
const relative = (file: string): string => path.relative(repo, file).split(path.sep).join("/");

/** The files of src/ a file imports or re-exports by a relative path (`import type` included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const targets: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/gm)) {
    const spec = match[1] ?? match[2] ?? match[3]!;
    let target = path.resolve(path.dirname(file), spec).replace(/\.js$/, ".ts");
    if (!target.endsWith(".ts")) target += ".ts";
    if (files.includes(target)) targets.push(target);
  }
  return targets;
}

const edges = new Map(files.map((file) => [file, importsOf(file)]));

/** The layer of a file of src/ (`null` for src/index.ts, which gathers them all). */
function layerOf(file: string): string | null {
  const [first, second] = path.relative(src, file).split(path.sep);
  return second === undefined ? null : first!;
}

describe("the architecture (docs/ARCHITECTURE.md)", () => {
  it("every file of src/ is in a known layer", () => {
    const unknown = files.filter((file) => layerOf(file) !== null && !(layers as readonly string[]).includes(layerOf(file)!));
    expect(unknown.map(relative)).toEqual([]);
  });

  it("layers import only downward", () => {
    const upward: string[] = [];
    for (const [file, targets] of edges) {
      const from = layerOf(file);
      if (from === null) continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to === null || to === from) continue;
        if (siblings.has(`${from}>${to}`) || layers.indexOf(to as never) > layers.indexOf(from as never)) upward.push(`${relative(file)} -> ${relative(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("no import circle", () => {
    // Tarjan's strongly connected components, iteratively.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const circles: string[][] = [];
    let next = 0;
    for (const root of files) {
      if (index.has(root)) continue;
      const work: [string, number][] = [[root, 0]];
      while (work.length > 0) {
        const top = work[work.length - 1]!;
        const [v, i] = top;
        if (i === 0) {
          index.set(v, next);
          low.set(v, next++);
          stack.push(v);
          onStack.add(v);
        }
        const targets = edges.get(v)!;
        if (i < targets.length) {
          top[1]++;
          const w = targets[i]!;
          if (!index.has(w)) work.push([w, 0]);
          else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
          continue;
        }
        work.pop();
        if (work.length > 0) {
          const parent = work[work.length - 1]![0];
          low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
        }
        if (low.get(v) === index.get(v)) {
          const component: string[] = [];
          let w: string;
          do {
            w = stack.pop()!;
            onStack.delete(w);
            component.push(relative(w));
          } while (w !== v);
          if (component.length > 1) circles.push(component.sort());
        }
      }
    }
    expect(circles).toEqual([]);
  });

  it("every source file opens with a comment that states its job", () => {
    const silent = files.filter((file) => !/^(?:#![^\n]*\n)?\s*(?:\/\*\*?[\s\S]*?\*\/|(?:\/\/[^\n]*\n)+)/.test(readFileSync(file, "utf8")));
    expect(silent.map(relative)).toEqual([]);
  });

  it("docs/ARCHITECTURE.md gives every source file a line, and no file that is not there", () => {
    const doc = readFileSync(path.join(repo, "docs/ARCHITECTURE.md"), "utf8");
    const named = new Set([...doc.matchAll(/`(src\/[\w./-]+\.ts)`/g)].map((m) => m[1]!));
    const listed = files.map(relative);
    expect(listed.filter((file) => !named.has(file))).toEqual([]);
    expect([...named].filter((file) => !listed.includes(file))).toEqual([]);
  });
});
