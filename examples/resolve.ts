// The main job in miniature, until the docbase command lands: resolve the
// references of a document against its base URL, as a browser would.
// Run with `npm start`.
import { parseURL, serializeURL, validateURL } from "../src/core/index.ts";

const documentURL = "https://example.com/docs/guide/intro.html";
const base = parseURL(documentURL)!; // parsed once, reused for every reference

const references = [
  "../api/url.html#parse",
  "/assets/logo.svg",
  "?page=2",
  "#section-3",
  "//cdn.example.net/lib.js",
  "HTTPS://EXAMPLE.COM:443/./a/../b",
  "https://bücher.example/?q=café",
  "https://[::ffff:127.0.0.1]:8080/",
  "http://0x7f.1/",
  "mailto:someone@example.com",
  "https://exa mple.com/",
];

console.log(`document URL: ${documentURL}\n`);
for (const reference of references) {
  const url = parseURL(reference, { base });
  console.log(`${JSON.stringify(reference).padEnd(40)} → ${url === null ? "(not a valid URL)" : serializeURL(url)}`);
}

// A windows-1252 document encodes the query of http(s) URLs in windows-1252.
const latin1 = parseURL("?q=café", { base, encoding: "windows-1252" })!;
console.log(`\nin a windows-1252 document, "?q=café" → ${serializeURL(latin1)}`);

// Validation errors, with where they are in the input.
const input = "https:\\\\user@exa mple.com";
console.log(`\nvalidation errors of ${JSON.stringify(input)}:`);
for (const error of validateURL(input).errors) {
  console.log(`  ${error.type} at ${error.start}–${error.end}: ${JSON.stringify(input.slice(error.start, error.end))}`);
}
