/**
 * `docbase base <file|-> --url U`: a document's base URL and how it is
 * derived (see `base-url-report.ts`), from the links layer's one reading
 * of it — its options, and the report as text or JSON.
 *
 * @module
 */

import { readLinks } from "../../links/internal.ts";
import { type BaseURLReport, baseURLReport } from "../base-url-report.ts";
import { UsageError } from "../errors.ts";
import { escapeControls, jsonLine } from "../format.ts";
import { inputKind } from "../inputs.ts";
import { encodingOption } from "../options.ts";
import type { Output } from "../output.ts";
import { DEFAULT_MAX_FILE_SIZE, readRegularFile } from "../regular-file.ts";
import { documentURLOption } from "../site.ts";
import { readStandardInput } from "../standard-input.ts";

/**
 * Options of `docbase base`.
 *
 * @example
 * ```ts
 * const options: BaseOptions = { url: "https://example.com/docs/guide.html", json: true };
 * ```
 */
export interface BaseOptions {
  readonly url: string;
  readonly json?: boolean | undefined;
  readonly encoding?: string | undefined;
  /** The largest file read, in bytes (`--max-file-size`). */
  readonly maxFileSize?: number | undefined;
}

function formatBaseReport(file: string, report: BaseURLReport): string {
  const lines = [file];
  const row = (name: string, value: string): void => {
    lines.push(`  ${name.padEnd(18)}  ${value}`);
  };
  row("document URL", report.documentURL);
  row("encoding", report.encoding);
  row("fallback base URL", `${report.fallbackBaseURL}${report.fallbackBaseURL === report.documentURL ? " (the document's URL)" : " (the about base URL)"}`);
  row("document base URL", report.documentBaseURL);
  const used = report.bases.find((b) => b.status === "used");
  const firstUnusable = report.bases.find((b) => b.status === "unusable");
  if (used !== undefined) {
    lines.push(`    set by <base href=${JSON.stringify(used.href)}> at ${used.line}:${used.column}, the first <base> with an href`);
  } else if (firstUnusable !== undefined) {
    lines.push(`    the fallback base URL: the first <base href=${JSON.stringify(firstUnusable.href)}> at ${firstUnusable.line}:${firstUnusable.column} ${firstUnusable.reason}`);
  } else {
    lines.push("    the fallback base URL: the document has no <base> with an href");
  }
  for (const base of report.bases) {
    const at = `<base href=${JSON.stringify(base.href)}> at ${base.line}:${base.column}`;
    if (base.status === "not-first") row("ignored", `${at}: only the first <base> with an href counts`);
    else if (base.status === "in-template") row("ignored", `${at}: in a <template>, not in the document`);
    else if (base.status === "in-shadow-root") row("ignored", `${at}: in a declarative shadow root, not in the document tree`);
    else if (base.status === "unusable") row("ignored", `${at}: it ${base.reason}`);
    if (base.inBody) row("note", `${at} is outside <head> (it counts all the same)`);
  }
  if (report.linksBeforeBase !== null) {
    const { count, first } = report.linksBeforeBase;
    row("note", `${count === 1 ? "a relative link" : `${count} relative links`} before the <base> (${count === 1 ? "at" : "the first at"} ${first.line}:${first.column}) ${count === 1 ? "resolves" : "resolve"} against it, not against the document's URL`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `docbase base <file> --url U`: the document base URL and how it is
 * derived.
 *
 * @example
 * ```ts
 * await baseCommand("examples/site/docs/guide.html", { url: "https://example.com/docs/guide.html" }, output); // 0
 * ```
 */
export async function baseCommand(input: string, options: BaseOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const kind = await inputKind(input);
  if (kind === "directory") throw new UsageError(`base: ${input} is a directory; give one HTML file (its URL is --url)`);
  const url = documentURLOption(options.url, "--url");
  let bytes: Uint8Array;
  try {
    const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    const read = kind === "stdin" ? await readStandardInput(maxBytes) : await readRegularFile(input, { maxBytes });
    if (typeof read === "string") throw new Error(read);
    bytes = read;
  } catch (error) {
    output.err(`docbase: ${escapeControls(input)}: cannot be read: ${escapeControls((error as Error).message)}\n`);
    return 1;
  }
  const read = readLinks(bytes, { url, encoding }, { bases: true });
  if (read.undecodable) {
    output.err(`docbase: ${input}: cannot be decoded: its encoding is the replacement encoding\n`);
    return 1;
  }
  const report = baseURLReport(read, url);
  const file = kind === "stdin" ? "-" : input;
  output.out(options.json === true ? `${jsonLine({ file, ...report })}\n` : formatBaseReport(kind === "stdin" ? "<stdin>" : input, report));
  return 0;
}
