/**
 * Links grouped into the external-link checker's targets: one per
 * serialized URL without its fragment, with the fragments asked for.
 *
 * @module
 */

import { parseURL, serializeURL } from "../../core/index.ts";
import type { ExternalTarget } from "./outcome.ts";

/**
 * A target made of links: the URL to ask, the fragments asked for, every
 * link (`referrers`, in order), and the links of each fragment.
 *
 * @example
 * ```ts
 * const group: ExternalLinkGroup<{ url: string }> = {
 *   url: "https://example.com/guide", fragments: new Set(["install"]),
 *   referrers: [{ url: "https://example.com/guide#install" }],
 *   fragmentReferrers: new Map([["install", [{ url: "https://example.com/guide#install" }]]]),
 * };
 * ```
 */
export interface ExternalLinkGroup<L> extends ExternalTarget {
  readonly url: string;
  readonly fragments: Set<string>;
  readonly referrers: L[];
  readonly fragmentReferrers: Map<string, L[]>;
}

/**
 * Groups `links` by the URL they ask for, in first-seen order; a link whose
 * `url` is null or does not parse is left out.
 *
 * @example
 * ```ts
 * const groups = groupExternalLinks([
 *   { url: "https://EXAMPLE.com/guide#install" },
 *   { url: "https://example.com/guide#usage" },
 *   { url: "https://example.com/guide" },
 * ]);
 * groups.length; // 1
 * groups[0].url; // "https://example.com/guide"
 * [...groups[0].fragments]; // ["install", "usage"]
 * groups[0].referrers.length; // 3
 * ```
 */
export function groupExternalLinks<L extends { readonly url: string | null }>(links: Iterable<L>): Array<ExternalLinkGroup<L>> {
  const groups = new Map<string, ExternalLinkGroup<L>>();
  for (const link of links) {
    const record = link.url === null ? null : parseURL(link.url);
    if (record === null) continue;
    const url = serializeURL(record, { excludeFragment: true });
    let group = groups.get(url);
    if (group === undefined) groups.set(url, (group = { url, fragments: new Set(), referrers: [], fragmentReferrers: new Map() }));
    group.referrers.push(link);
    if (record.fragment === null) continue;
    group.fragments.add(record.fragment);
    const asking = group.fragmentReferrers.get(record.fragment);
    if (asking === undefined) group.fragmentReferrers.set(record.fragment, [link]);
    else asking.push(link);
  }
  return [...groups.values()];
}
