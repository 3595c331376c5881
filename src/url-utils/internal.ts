/**
 * What the other layers of this package (the jsdom plugin) use from
 * url-utils beyond its public face (index.ts): the HTMLHyperlinkElementUtils
 * steps that its hyperlink fast path calls directly. Not exported from the
 * package.
 *
 * @module
 */

export { hyperlinkAttributeOfURL, isKeptHyperlinkURL, keepsHyperlinkURL } from "./hyperlink-element-utils.ts";
