/**
 * How the command prints for people: values quoted only when they need
 * it, control characters escaped, long values cut, a file's links as a
 * table, counts and times.
 *
 * @module
 */

import type { Link } from "../links/index.ts";

/**
 * A value as printed: as it is, or JSON-quoted when it is empty or has
 * spaces, quotes or control characters.
 *
 * @example
 * ```ts
 * formatValue("a.html"); // "a.html"
 * formatValue("a b.html"); // '"a b.html"'
 * formatValue(""); // '""'
 * ```
 */
export function formatValue(value: string): string {
  return value === "" || /[\s"\u0000-\u001f\u007f-\u009f]/.test(value) ? JSON.stringify(value) : value;
}

/**
 * Text for a terminal: every control character (C0 but tab, DEL, C1) and
 * the bidirectional overrides written as `\xHH` / `\u{HHHH}`, so that a file
 * name or a document's text cannot move the cursor, ring the bell, start an
 * escape sequence or fake a line. JSON output escapes the same
 * characters its own way (see {@link jsonLine}).
 *
 * @example
 * ```ts
 * escapeControls("a\u001b[2Jb.html"); // "a\\x1b[2Jb.html"
 * escapeControls("plain.html"); // "plain.html"
 * ```
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * One JSON object as a line of output (no newline): `JSON.stringify`, and
 * the characters {@link escapeControls} escapes that JSON leaves raw — DEL,
 * C1 controls (U+009B starts a terminal escape sequence on its own) and
 * the bidirectional overrides — as `\uHHHH` escapes, so that a consumer
 * that prints a string of it prints them harmless; the value parses the
 * same.
 *
 * @example
 * ```ts
 * jsonLine({ value: "a\u009b2Jb\u202e" }); // '{"value":"a\\u009b2Jb\\u202e"}'
 * ```
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A long value as printed in a finding: whole when it is short, else its
 * `[start, end)` part with a little context and `…` for what is left out,
 * so that a message's length does not grow with the value (a URL of
 * 40,000 code points with 20,000 validation errors would otherwise print
 * the whole URL 20,000 times).
 *
 * @example
 * ```ts
 * excerpt("https://example.com/a b", 21, 22); // "https://example.com/a b"
 * excerpt("x".repeat(500) + " " + "y".repeat(500), 500, 501); // "…xxxxxxxxxxxxxxxxxxxxxxxx yyyyyyyyyyyyyyyyyyyyyyyy…"
 * ```
 */
export function excerpt(value: string, start: number, end: number): string {
  const CONTEXT = 24;
  if (value.length <= 120) return value;
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(value.length, Math.max(end, start) + CONTEXT, from + 120);
  return `${from > 0 ? "…" : ""}${value.slice(from, to)}${to < value.length ? "…" : ""}`;
}

/**
 * How a link's element and attribute are printed, with where the link is
 * (a srcdoc document, a template).
 *
 * @example
 * ```ts
 * linkLabel(extractLinks("<a href=x>", { url: "https://example.com/" })[0]); // "<a href>"
 * linkLabel(extractLinks("<style>@import 'x.css'</style>", { url: "https://example.com/" })[0]); // "<style> text"
 * linkLabel(extractStylesheetLinks("@import 'x.css'", { url: "https://example.com/" })[0]); // "@import" (a CSS file's)
 * ```
 */
export function linkLabel(link: Link): string {
  // A link of a style sheet file has no element: its CSS construct names it.
  if (link.element === "") return link.kind === "css-import" ? "@import" : "url()";
  let label = link.attribute === null ? `<${link.element}> text` : `<${link.element} ${link.attribute}>`;
  if (link.srcdoc > 0) label += link.srcdoc === 1 ? " in srcdoc" : ` in srcdoc ×${link.srcdoc}`;
  if (link.template) label += " in template";
  if (link.ignored === true) label += " (ignored candidate)";
  if (link.missing === true) label += " (no action: the document's URL)";
  return label;
}

function displayWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function pad(s: string, width: number): string {
  const w = displayWidth(s);
  return w >= width ? s : s + " ".repeat(width - w);
}

/** Values longer than this are not padded to align the URL column (they would push it off the screen). */
const MAX_VALUE_COLUMN = 48;

/**
 * A file's links as a table: the file's name, then one row per link with
 * its line:column, element and attribute, value and resolved URL, aligned.
 *
 * @example
 * ```ts
 * formatLinkTable("index.html", extractLinks("<a href=a>\n<img src=b.png>", { url: "https://example.com/" }));
 * // "index.html\n   1:9  <a href>   a      https://example.com/a\n  2:10  <img src>  b.png  https://example.com/b.png\n"
 * ```
 */
export function formatLinkTable(file: string, links: readonly Link[]): string {
  const rows = links.map((link) => ({
    at: `${link.line}:${link.column}`,
    label: linkLabel(link),
    value: link.missing === true ? "(none)" : formatValue(link.value),
    url: link.url ?? "(does not parse)",
  }));
  let atWidth = 0;
  let labelWidth = 0;
  let valueWidth = 0;
  for (const r of rows) {
    atWidth = Math.max(atWidth, r.at.length);
    labelWidth = Math.max(labelWidth, displayWidth(r.label));
    const w = displayWidth(r.value);
    if (w <= MAX_VALUE_COLUMN) valueWidth = Math.max(valueWidth, w);
  }
  const lines = [file];
  for (const r of rows) {
    lines.push(`  ${" ".repeat(atWidth - r.at.length)}${r.at}  ${pad(r.label, labelWidth)}  ${pad(r.value, valueWidth)}  ${r.url}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A count and its noun, in English.
 *
 * @example
 * ```ts
 * plural(1, "link"); // "1 link"
 * plural(1234, "link"); // "1,234 links"
 * ```
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : pluralNoun}`;
}

/**
 * A size in bytes as a person gave it: a whole number of GiB, MiB or KiB
 * in that unit (what `--max-file-size 64M` was given as), bytes below
 * 1 KiB, else the largest unit with one decimal. Never "0.0 KiB".
 *
 * @example
 * ```ts
 * formatSize(5); // "5 bytes"
 * formatSize(64 * 1024 * 1024); // "64 MiB"
 * formatSize(1536); // "1.5 KiB"
 * ```
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  for (const [unit, size] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024]] as const) {
    if (bytes >= size) return bytes % size === 0 ? `${bytes / size} ${unit}` : `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Milliseconds as seconds, with the precision a person reads.
 *
 * @example
 * ```ts
 * formatSeconds(1234); // "1.23 s"
 * formatSeconds(65432); // "65.4 s"
 * ```
 */
export function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}
