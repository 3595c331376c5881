/**
 * The work shared by bench/stream-rewrite.ts and its child processes — the
 * URL-blind rewrite decision, the attributes both rewriters touch, the
 * lol-html handlers, the generated page — and the child itself: it streams
 * one generated page through one contender, counts and discards the output,
 * and prints one JSON line of figures (time, time to the first output
 * chunk, peak RSS, sampled heap peaks).
 *
 * The child runs as JavaScript: the bench strips this file's types
 * (`stripTypeScriptTypes` of node:module) into a temporary `.mjs` file,
 * because running a `.ts` file makes Node load its type stripper, which
 * costs about 17 MB of RSS (measured: 42 MB for an empty `.mjs` script,
 * 59 MB for the same as `.ts`), a quarter of the 64 MiB target. For the
 * same reason it runs the built docbase (`dist/`), as a user would; every
 * module comes by an absolute URL on the command line, and this file
 * imports nothing but Node's own modules (its type imports are erased).
 *
 *   node --expose-gc CHILD.mjs --stream-child --contender=none|linkstream|web|lol-html|rewrite-links
 *     --size=BYTES --head=FILE --unit=FILE --url=DOCUMENT_URL --docbase=FILE_URL --lol-html=PATH --rows=JSON [--live-heap]
 *
 * `--rows` is {@link touchedRows} as JSON, so that the lol-html child
 * does not load docbase for its catalogue.
 *
 * @module
 */

import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import v8 from "node:v8";
import type { HTMLRewriter as LolRewriter } from "html-rewriter-wasm";
import type * as DocbaseLinks from "../src/links/index.ts";
import type { CatalogueEntry, Link } from "../src/links/index.ts";

/** The size of every chunk written (the last one of a page may be shorter). */
export const CHUNK = 64 * 1024;

/** What the rewrite prefixes to a value that starts with "/". */
export const CDN = "https://cdn.example";

/**
 * The URL-blind rewrite decision, the same on both sides: a value that
 * starts with "/" gets the CDN's origin in front of it; any other is left.
 *
 * @example
 * ```ts
 * cdn("/a.png"); // "https://cdn.example/a.png"
 * cdn("a.png"); // undefined
 * ```
 */
export function cdn(value: string): string | undefined {
  return value.charCodeAt(0) === 0x2f ? CDN + value : undefined;
}

/** How many values a rewriter changed in one pass (the checksum's second part). */
export interface Counter {
  rewrites: number;
}

/**
 * The catalogue rows both rewriters touch: every URL attribute but CSS
 * (`style`, SVG presentation attributes: lol-html sees no `url()`),
 * `srcdoc` (a document inside an attribute) and `<meta content>` (a
 * refresh, whose URL is inside the value).
 *
 * @example
 * ```ts
 * touchedRows(catalogue).some((row) => row.attribute === "srcset"); // true
 * ```
 */
export function touchedRows(catalogue: readonly CatalogueEntry[]): CatalogueEntry[] {
  return catalogue.filter((row) => row.kind === "single" || row.kind === "srcset" || row.kind === "list" || row.kind === "absolute-list");
}

/**
 * docbase's side of the rewrite: the decision on each link's value, for
 * the links of the touched rows in the document itself (not in a srcdoc
 * document, which lol-html does not read).
 *
 * @example
 * ```ts
 * const counter = { rewrites: 0 };
 * rewriteLinks(html, { url, rewrite: docbaseRewrite(counter) });
 * ```
 */
export function docbaseRewrite(counter: Counter): (link: Link) => string | undefined {
  return (link) => {
    if (link.srcdoc !== 0 || link.attribute === null) return undefined;
    const kind = link.kind;
    if (kind !== "single" && kind !== "srcset" && kind !== "list" && kind !== "absolute-list") return undefined;
    const text = cdn(link.value);
    if (text !== undefined) counter.rewrites++;
    return text;
  };
}

const namespaces = { html: "http://www.w3.org/1999/xhtml", svg: "http://www.w3.org/2000/svg" } as const;

/** The lol-html side of one value: the decision on the whole value, or on each item of a list or srcset. */
function rewriteValue(kind: CatalogueEntry["kind"], value: string, counter: Counter): string | undefined {
  if (kind === "single") {
    const text = cdn(value);
    if (text !== undefined) counter.rewrites++;
    return text;
  }
  // URL-blind splitting: srcset candidates on ",", list items on spaces.
  const separator = kind === "srcset" ? "," : " ";
  const items = value.split(separator);
  let changed = false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const lead = item.length - item.trimStart().length;
    const text = cdn(item.slice(lead));
    if (text !== undefined) {
      items[i] = item.slice(0, lead) + text;
      counter.rewrites++;
      changed = true;
    }
  }
  return changed ? items.join(separator) : undefined;
}

/**
 * Registers on a lol-html rewriter one element handler per touched
 * element and attribute (`a[href]`, `img[srcset]`, `[itemid]`, SVG's
 * `[href]` and `[xlink\:href]`), each checking the element's namespace
 * and setting the attribute to the rewritten value, then freeing the
 * element (see below).
 *
 * @example
 * ```ts
 * const counter = { rewrites: 0 };
 * addLolHandlers(new HTMLRewriter((chunk) => {}), touchedRows(catalogue), counter);
 * ```
 */
export function addLolHandlers(rewriter: LolRewriter, rows: readonly CatalogueEntry[], counter: Counter): void {
  for (const row of rows) {
    const attribute = row.attribute;
    const namespace = namespaces[row.namespace];
    const kind = row.kind;
    const selectorAttribute = attribute.replace(":", "\\:");
    const selectors = row.elements === "*" ? [`[${selectorAttribute}]`] : row.elements.map((element) => `${element}[${selectorAttribute}]`);
    for (const selector of selectors) {
      rewriter.on(selector, {
        element(element) {
          if (element.namespaceURI === namespace) {
            const value = element.getAttribute(attribute);
            const text = value === null ? undefined : rewriteValue(kind, value, counter);
            if (text !== undefined) element.setAttribute(attribute, text);
          }
          // html-rewriter-wasm 0.4.1 registers no finalizer: the element
          // given to a handler is a WebAssembly allocation that only its
          // (undocumented) free() releases. Without it, memory grows with
          // every element matched (measured on 100 MB of the generated
          // page's bodies: peak RSS 99 MB, 83 MB with free()).
          (element as unknown as { free(): void }).free();
        },
      });
    }
  }
}

/**
 * The chunks of a generated page of exactly `size` bytes: `head` (a real
 * page's head, with or without a `<base>`), then the bytes of `unitFile`
 * (real page bodies) over and over, read from the file into a fresh
 * {@link CHUNK}-byte array each time (a consumer may keep what it is
 * given), then `</body></html>`. Nothing but one chunk is held.
 *
 * @example
 * ```ts
 * for (const chunk of generatedPage(head, "/tmp/unit.html", 10 * 1024 * 1024)) stream.write(chunk);
 * ```
 */
export function* generatedPage(head: Uint8Array, unitFile: string, size: number): Generator<Uint8Array> {
  const tail = new TextEncoder().encode("</body></html>\n");
  const fd = openSync(unitFile, "r");
  try {
    let sent = 0;
    let position = 0;
    for (let i = 0; i < head.length; i += CHUNK) {
      const chunk = head.slice(i, Math.min(i + CHUNK, head.length));
      sent += chunk.length;
      yield chunk;
    }
    const bodyEnd = size - tail.length;
    while (sent < bodyEnd) {
      const chunk = new Uint8Array(Math.min(CHUNK, bodyEnd - sent));
      let filled = 0;
      while (filled < chunk.length) {
        const read = readSync(fd, chunk, filled, chunk.length - filled, position);
        if (read === 0) {
          if (position === 0) throw new Error(`${unitFile} is empty`);
          position = 0;
          continue;
        }
        filled += read;
        position += read;
      }
      sent += chunk.length;
      yield chunk;
    }
    yield tail;
  } finally {
    closeSync(fd);
  }
}

// --- The child ----------------------------------------------------------------

/**
 * A contender of the child: what it streams the page through; "none" only
 * reads the page (Node itself and the generator, for the floor).
 */
export type ChildContender = "none" | "linkstream" | "web" | "lol-html" | "rewrite-links";

/** The JSON line a child prints. */
export interface ChildResult {
  readonly contender: ChildContender;
  readonly size: number;
  readonly outputBytes: number;
  readonly rewrites: number;
  readonly warnings: number;
  /** From the first chunk written to the end of the output. */
  readonly ms: number;
  /** From the first chunk written to the first output chunk. */
  readonly firstOutputMs: number;
  /** Input bytes written before the first output chunk came. */
  readonly firstOutputAfter: number;
  /** Peak RSS of the process before the first chunk (modules loaded, a full collection run); see peakRSS. */
  readonly baselineMaxRSS: number;
  /** Peak RSS of the process at the end; see peakRSS. */
  readonly maxRSS: number;
  readonly heapUsedPeak: number;
  readonly heapTotalPeak: number;
  readonly externalPeak: number;
  readonly rssSampledPeak: number;
  /** With `--live-heap`: the most heap left by the full collections made every 16 MiB of chunks; 0 without. */
  readonly liveHeapPeak: number;
  /** V8's own peak of malloc'd memory (compiler zones and the like, outside the heap). */
  readonly mallocedPeak: number;
}

/**
 * The process's peak RSS: VmHWM of /proc/self/status, the high-water mark
 * of this program's own memory. Not `process.resourceUsage().maxRSS`: on
 * Linux that keeps the high-water mark of the process before `exec`, and a
 * child of Node is forked from Node, so it starts at its parent's RSS
 * (measured: a child of a parent holding 300 MB reported 312 MB for an
 * empty script, VmHWM 45 MB). Falls back to maxRSS where there is no /proc.
 */
function peakRSS(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (match !== null) return Number(match[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

function childFlag(name: string): string {
  const prefix = `--${name}=`;
  const arg = process.argv.find((a) => a.startsWith(prefix));
  if (arg === undefined) throw new Error(`stream-rewrite child: --${name}= missing`);
  return arg.slice(prefix.length);
}

async function child(): Promise<void> {
  const contender = childFlag("contender") as ChildContender;
  const size = Number(childFlag("size"));
  const url = childFlag("url");
  const head = new Uint8Array(readFileSync(childFlag("head")));
  const unitFile = childFlag("unit");
  const counter: Counter = { rewrites: 0 };
  const gc = (globalThis as { gc?: () => void }).gc;

  // Peaks, sampled after every chunk (the heap) and every 16th (RSS, which reads /proc).
  let heapUsedPeak = 0;
  let heapTotalPeak = 0;
  let externalPeak = 0;
  let rssSampledPeak = 0;
  let samples = 0;
  // --live-heap: a full collection every 256th sample (16 MiB of chunks), and the heap it leaves.
  const live = process.argv.includes("--live-heap") && gc !== undefined;
  let liveHeapPeak = 0;
  const sample = (): void => {
    if (live && (samples & 255) === 255) {
      gc();
      const used = v8.getHeapStatistics().used_heap_size;
      if (used > liveHeapPeak) liveHeapPeak = used;
    }
    const h = v8.getHeapStatistics();
    if (h.used_heap_size > heapUsedPeak) heapUsedPeak = h.used_heap_size;
    if (h.total_heap_size > heapTotalPeak) heapTotalPeak = h.total_heap_size;
    if (h.external_memory > externalPeak) externalPeak = h.external_memory;
    if ((samples++ & 15) === 0) {
      const rss = process.memoryUsage.rss();
      if (rss > rssSampledPeak) rssSampledPeak = rss;
    }
  };

  let outputBytes = 0;
  let warnings = 0;
  let written = 0;
  let firstOutputAt = -1;
  let firstOutputAfter = -1;
  const onOutput = (chunk: Uint8Array | string): void => {
    if (firstOutputAt < 0) {
      firstOutputAt = performance.now();
      firstOutputAfter = written;
    }
    outputBytes += chunk.length;
  };
  const onWarning = (): void => {
    warnings++;
  };
  const rewrite = docbaseRewrite(counter);

  // Everything loaded before the baseline.
  let run: () => Promise<void> | void;
  if (contender === "none") {
    run = () => {
      for (const chunk of generatedPage(head, unitFile, size)) {
        written += chunk.length;
        onOutput(chunk);
        sample();
      }
    };
  } else if (contender === "lol-html") {
    const { HTMLRewriter } = createRequire(import.meta.url)(childFlag("lol-html")) as typeof import("html-rewriter-wasm");
    const rows = JSON.parse(childFlag("rows")) as CatalogueEntry[];
    run = async () => {
      const rewriter = new HTMLRewriter(onOutput);
      try {
        addLolHandlers(rewriter, rows, counter);
        for (const chunk of generatedPage(head, unitFile, size)) {
          written += chunk.length;
          await rewriter.write(chunk);
          sample();
        }
        await rewriter.end();
      } finally {
        rewriter.free();
      }
    };
  } else {
    const docbase = (await import(childFlag("docbase"))) as typeof DocbaseLinks;
    if (contender === "rewrite-links") {
      run = () => {
        // It takes a whole document: the page is built in one buffer first (not timed as output).
        let whole: Uint8Array | null = new Uint8Array(size);
        let at = 0;
        for (const chunk of generatedPage(head, unitFile, size)) {
          whole.set(chunk, at);
          at += chunk.length;
        }
        written = size;
        sample();
        const output = docbase.rewriteLinks(whole, { url, rewrite });
        whole = null;
        sample();
        onOutput(output);
      };
    } else if (contender === "linkstream") {
      const { LinkStream } = docbase;
      run = () => {
        const stream = new LinkStream({ url, rewrite, onOutput, onWarning });
        for (const chunk of generatedPage(head, unitFile, size)) {
          written += chunk.length;
          stream.write(chunk);
          sample();
        }
        stream.end();
      };
    } else {
      const { createLinkRewriter } = docbase;
      run = async () => {
        const page = generatedPage(head, unitFile, size);
        const source = new ReadableStream<Uint8Array>({
          pull(controller) {
            const next = page.next();
            if (next.done === true) controller.close();
            else {
              written += next.value.length;
              controller.enqueue(next.value);
            }
          },
        });
        const reader = source.pipeThrough(createLinkRewriter({ url, rewrite, onWarning })).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          onOutput(value);
          sample();
        }
      };
    }
  }

  gc?.();
  const baselineMaxRSS = peakRSS();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const result: ChildResult = {
    contender,
    size,
    outputBytes,
    rewrites: counter.rewrites,
    warnings,
    ms,
    firstOutputMs: firstOutputAt - t0,
    firstOutputAfter,
    baselineMaxRSS,
    maxRSS: peakRSS(),
    heapUsedPeak,
    heapTotalPeak,
    externalPeak,
    rssSampledPeak,
    liveHeapPeak,
    mallocedPeak: v8.getHeapStatistics().peak_malloced_memory,
  };
  console.log(JSON.stringify(result));
}

if (process.argv.includes("--stream-child")) await child();
