/**
 * Which elements can host a declarative shadow root, and the states of the
 * `shadowrootmode` attribute: the names and keywords the HTML parser decides
 * by when it meets `<template shadowrootmode>`
 * (https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead).
 *
 * @module
 */

import { asciiLowercase } from "../core/infra.ts";

/**
 * The states of the `shadowrootmode` attribute
 * (https://html.spec.whatwg.org/multipage/scripting.html#attr-template-shadowrootmode):
 * "open", "closed", and "none", its missing value default and invalid value
 * default.
 *
 * @example
 * ```ts
 * const mode: ShadowRootModeState = shadowRootModeState("OPEN"); // "open"
 * ```
 */
export type ShadowRootModeState = "open" | "closed" | "none";

/**
 * https://html.spec.whatwg.org/multipage/scripting.html#attr-template-shadowrootmode —
 * the state of a `shadowrootmode` attribute with this value (null: absent).
 * An enumerated attribute's keywords match ASCII case-insensitively.
 *
 * @example
 * ```ts
 * shadowRootModeState("open"); // "open"
 * shadowRootModeState("Closed"); // "closed"
 * shadowRootModeState("invalid"); // "none"
 * shadowRootModeState(null); // "none"
 * ```
 */
export function shadowRootModeState(value: string | null): ShadowRootModeState {
  if (value === null) return "none";
  const keyword = asciiLowercase(value);
  if (keyword === "open" || keyword === "closed") return keyword;
  return "none";
}

/** https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name — the reserved names. */
const reservedCustomElementNames: ReadonlySet<string> = new Set([
  "annotation-xml",
  "color-profile",
  "font-face",
  "font-face-src",
  "font-face-uri",
  "font-face-format",
  "font-face-name",
  "missing-glyph",
]);

/**
 * https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name —
 * whether `name` is a valid custom element name: a valid element local name
 * (https://dom.spec.whatwg.org/#valid-element-local-name) whose first code
 * point is an ASCII lower alpha, with no ASCII upper alpha, with a "-", and
 * not one of the reserved names (annotation-xml, font-face, …).
 *
 * @example
 * ```ts
 * isValidCustomElementName("my-card"); // true
 * isValidCustomElementName("font-face"); // false (reserved)
 * isValidCustomElementName("div"); // false (no "-")
 * ```
 */
export function isValidCustomElementName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (!(first >= 0x61 && first <= 0x7a) || !name.includes("-")) return false;
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // An ASCII upper alpha; and, for a valid element local name that starts with an ASCII alpha,
    // ASCII whitespace, U+0000 NULL, "/" or ">".
    if ((c >= 0x41 && c <= 0x5a) || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20 || c === 0x00 || c === 0x2f || c === 0x3e) {
      return false;
    }
  }
  return !reservedCustomElementNames.has(name);
}

/** https://dom.spec.whatwg.org/#valid-shadow-host-name — the names that are not custom element names. */
const shadowHostNames: ReadonlySet<string> = new Set([
  "article",
  "aside",
  "blockquote",
  "body",
  "div",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "main",
  "nav",
  "p",
  "section",
  "span",
]);

/**
 * https://dom.spec.whatwg.org/#valid-shadow-host-name — whether an element
 * with this local name (in the HTML namespace) can host a shadow root: a
 * valid custom element name, or one of article, aside, blockquote, body,
 * div, footer, h1–h6, header, main, nav, p, section, span.
 *
 * @example
 * ```ts
 * isValidShadowHostName("div"); // true
 * isValidShadowHostName("my-card"); // true
 * isValidShadowHostName("a"); // false
 * ```
 */
export function isValidShadowHostName(localName: string): boolean {
  return shadowHostNames.has(localName) || isValidCustomElementName(localName);
}
