/**
 * The indicated part of a document: what a URL's fragment names in it (an
 * element by its ID, an `a` element by its name, or the top of the
 * document), as the HTML Standard finds it when it scrolls to a fragment.
 * The matching only, over the names a document has (see
 * fragment-targets.ts for reading them from a document).
 *
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scrolling-to-a-fragment
 *
 * @module
 */

import { percentDecodeString } from "../core/index.ts";

/**
 * What a fragment can indicate in one document: the IDs of its elements
 * and the `name`s of its `a` elements, in the document tree.
 *
 * @example
 * ```ts
 * const targets: FragmentTargets = { ids: new Set(["intro"]), names: new Set(["old-intro"]) };
 * ```
 */
export interface FragmentTargets {
  readonly ids: ReadonlySet<string>;
  readonly names: ReadonlySet<string>;
}

/**
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#find-a-potential-indicated-element —
 * whether `fragment` names an element of `targets`: "an element in the
 * document tree ... that has an ID equal to fragment", else "an a element
 * ... that has a name attribute whose value is equal to fragment".
 * Exact, case-sensitive comparison.
 *
 * @example
 * ```ts
 * findPotentialIndicatedElement({ ids: new Set(["Intro"]), names: new Set() }, "Intro"); // "id"
 * findPotentialIndicatedElement({ ids: new Set(["Intro"]), names: new Set() }, "intro"); // null
 * ```
 */
export function findPotentialIndicatedElement(targets: FragmentTargets, fragment: string): "id" | "name" | null {
  if (targets.ids.has(fragment)) return "id";
  if (targets.names.has(fragment)) return "name";
  return null;
}

/** "UTF-8 decode without BOM" (https://encoding.spec.whatwg.org/#utf-8-decode-without-bom): a BOM stays, errors become U+FFFD. */
const utf8WithoutBOM = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#select-the-indicated-part —
 * what `fragment` (a URL's fragment, as serialized: percent-encoded)
 * indicates in a document with `targets`, once the URL is known to be the
 * document's own (the caller's step 1): "top" (the top of the document),
 * "id" or "name" (the element found, and how), or null (nothing: the
 * browser does not scroll).
 *
 * The order is the standard's: the fragment as it is, then
 * percent-decoded and UTF-8-decoded, then "top":
 * 3. "If fragment is the empty string, then return the special value top of the document."
 * 4–5. the potential indicated element for fragment;
 * 6–9. "Let decodedFragment be the result of running UTF-8 decode without
 *    BOM on fragmentBytes", and the potential indicated element for it;
 * 10. "If decodedFragment is an ASCII case-insensitive match for the string top, then return the top of the document."
 *
 * @example
 * ```ts
 * const targets = { ids: new Set(["café", "50%"]), names: new Set(["old"]) };
 * selectIndicatedPart(targets, "caf%C3%A9"); // "id"
 * selectIndicatedPart(targets, "50%"); // "id" (the fragment as it is comes first)
 * selectIndicatedPart(targets, "old"); // "name"
 * selectIndicatedPart(targets, "TOP"); // "top"
 * selectIndicatedPart(targets, ""); // "top"
 * selectIndicatedPart(targets, "nope"); // null
 * ```
 */
export function selectIndicatedPart(targets: FragmentTargets, fragment: string): "top" | "id" | "name" | null {
  if (fragment === "") return "top";
  const found = findPotentialIndicatedElement(targets, fragment);
  if (found !== null) return found;
  // Optimisation: an ASCII fragment without "%" (most are: a URL serializes its fragment so) decodes to
  // itself: no second lookup.
  const decodedFragment = /[%\u0080-\uffff]/.test(fragment) ? utf8WithoutBOM.decode(percentDecodeString(fragment)) : fragment;
  if (decodedFragment !== fragment) {
    const decodedFound = findPotentialIndicatedElement(targets, decodedFragment);
    if (decodedFound !== null) return decodedFound;
  }
  return isTop(decodedFragment) ? "top" : null;
}

/** Whether `s` is an ASCII case-insensitive match for "top" (https://infra.spec.whatwg.org/#ascii-case-insensitive). */
function isTop(s: string): boolean {
  return s.length === 3 && (s.charCodeAt(0) | 0x20) === 0x74 && (s.charCodeAt(1) | 0x20) === 0x6f && (s.charCodeAt(2) | 0x20) === 0x70;
}

/**
 * A URL's fragment without its fragment directive: the part before the
 * first ":~:" (a text fragment, `#:~:text=...`, is a directive to the
 * browser, not an element's name; the browser strips it from the URL
 * before it looks for the indicated part).
 *
 * https://wicg.github.io/scroll-to-text-fragment/#fragment-directive-delimiter
 *
 * @example
 * ```ts
 * removeFragmentDirective("intro:~:text=hello"); // "intro"
 * removeFragmentDirective(":~:text=hello"); // ""
 * removeFragmentDirective("intro"); // "intro"
 * ```
 */
export function removeFragmentDirective(fragment: string): string {
  const at = fragment.indexOf(":~:");
  return at === -1 ? fragment : fragment.slice(0, at);
}
