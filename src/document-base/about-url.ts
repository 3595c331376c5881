/**
 * The HTML Standard's two "matches" predicates for the reserved `about:`
 * URLs whose documents take their base URL from another document.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#terminology-2
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";

/**
 * Whether the URL's path "contains a single string" `name`: the opaque path
 * `name` (as in `about:blank`), or the list `[name]` (as in `about:/blank`).
 * (This layer's records keep the serialized path; see URLRecord.)
 */
function pathIsSingleString(url: Readonly<URLRecord>, name: string): boolean {
  return url.opaquePath ? url.path === name : url.path.length === name.length + 1 && url.path.charCodeAt(0) === 0x2f && url.path.endsWith(name);
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:blank —
 * "its scheme is "about", its path contains a single string "blank", its
 * username and password are the empty string, and its host is null". The
 * query and fragment may be anything.
 *
 * @example
 * ```ts
 * import { parseURL } from "docbase/core";
 * matchesAboutBlank(parseURL("about:blank?foo#bar")!); // true
 * matchesAboutBlank(parseURL("about:Blank")!); // false (paths are case-sensitive)
 * matchesAboutBlank(parseURL("about:srcdoc")!); // false
 * ```
 */
export function matchesAboutBlank(url: Readonly<URLRecord>): boolean {
  return url.scheme === "about" && url.username === "" && url.password === "" && url.host === null && pathIsSingleString(url, "blank");
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:srcdoc —
 * as {@link matchesAboutBlank} with "srcdoc", and the query must be null
 * (only the fragment can vary).
 *
 * @example
 * ```ts
 * import { parseURL } from "docbase/core";
 * matchesAboutSrcdoc(parseURL("about:srcdoc#foo")!); // true
 * matchesAboutSrcdoc(parseURL("about:srcdoc?x")!); // false
 * ```
 */
export function matchesAboutSrcdoc(url: Readonly<URLRecord>): boolean {
  return (
    url.scheme === "about" &&
    url.query === null &&
    url.username === "" &&
    url.password === "" &&
    url.host === null &&
    pathIsSingleString(url, "srcdoc")
  );
}
