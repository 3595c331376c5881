/**
 * How the command prints links and findings for people: a table per file,
 * values quoted only when they need it, and the summary line.
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
 * How a link's element and attribute are printed, with where the link is
 * (a srcdoc document, a template).
 *
 * @example
 * ```ts
 * linkLabel(extractLinks("<a href=x>", { url: "https://example.com/" })[0]); // "<a href>"
 * linkLabel(extractLinks("<style>@import 'x.css'</style>", { url: "https://example.com/" })[0]); // "<style> text"
 * ```
 */
export function linkLabel(link: Link): string {
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
