/**
 * The HTML Standard's link types on a `<link>` element: which keywords of
 * its `rel` make it an external resource (fetched for the page) and which
 * a hyperlink (https://html.spec.whatwg.org/multipage/links.html#linkTypes).
 *
 * @module
 */

import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";

/** The keywords whose effect on `<link>` is "External Resource" in the standard's table of link types. */
const EXTERNAL_RESOURCE: ReadonlySet<string> = new Set([
  "dns-prefetch",
  "icon",
  "manifest",
  "modulepreload",
  "pingback",
  "preconnect",
  "prefetch",
  "preload",
  "stylesheet",
]);

/** The keywords whose effect on `<link>` is "Hyperlink" in the standard's table of link types. */
const HYPERLINK: ReadonlySet<string> = new Set([
  "alternate",
  "canonical",
  "author",
  "help",
  "license",
  "next",
  "prev",
  "privacy-policy",
  "search",
  "terms-of-service",
]);

/**
 * What a `<link>` element with `rel` (its attribute's value, or null
 * when it has none) does with its href: `"resource"` when a keyword makes
 * it an external resource (the page fetches it), else `"navigation"` when
 * a keyword makes it a hyperlink, else null ("If the rel attribute ...
 * has no keywords that are defined in this specification, then the
 * element does not create any links"). Keywords are ASCII
 * case-insensitive and split at ASCII whitespace; `shortcut icon` is
 * `icon`.
 *
 * @example
 * ```ts
 * linkTypesLoad("stylesheet"); // "resource"
 * linkTypesLoad("Shortcut Icon"); // "resource"
 * linkTypesLoad("alternate stylesheet"); // "resource"
 * linkTypesLoad("canonical"); // "navigation"
 * linkTypesLoad("apple-touch-icon"); // null
 * ```
 */
export function linkTypesLoad(rel: string | null): "resource" | "navigation" | null {
  if (rel === null) return null;
  let hyperlink = false;
  let start = 0;
  for (let i = 0; i <= rel.length; i++) {
    if (i < rel.length && !isASCIIWhitespace(rel.charCodeAt(i))) continue;
    if (i > start) {
      const keyword = asciiLowercase(rel.slice(start, i));
      if (EXTERNAL_RESOURCE.has(keyword)) return "resource";
      if (HYPERLINK.has(keyword)) hyperlink = true;
    }
    start = i + 1;
  }
  return hyperlink ? "navigation" : null;
}
