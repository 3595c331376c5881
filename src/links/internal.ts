/**
 * The links layer's face to the rest of the package (the command): what
 * one reading of a document tells beyond its links, the fragment targets
 * and their matching, and the encoding sniffing (for work that must know
 * before it reads whether a file can be decoded). Not a public entry
 * point: these names may change with the command.
 *
 * @example
 * ```ts
 * import { readLinks } from "../links/internal.ts";
 * const read = readLinks(bytes, { url, encoding, validate: true }, { bases: true, targets: true });
 * if (read.undecodable) report("cannot be decoded");
 * ```
 *
 * @module
 */

export { readLinks, type LinksRead, type ReadWants } from "./read-links.ts";
export { rewriteLinksAndEncoding } from "./rewrite-links.ts";
export { readStylesheet, rewriteStylesheet, type StylesheetRead } from "./stylesheet-links.ts";
export { type BaseElement, type BaseElementStatus } from "./base-elements.ts";
export { type EncodingSource, sniffEncoding } from "./encoding-sniffing.ts";
export { documentFragmentTargets, extractLinksAndTargets, type DocumentTargets } from "./fragment-targets.ts";
export { findPotentialIndicatedElement, removeFragmentDirective, selectIndicatedPart, type FragmentTargets } from "./indicated-part.ts";
export { type StreamInternals } from "./link-stream.ts";
export { MAX_STREAMED_BASES, type StreamedBases } from "./stream-end-facts.ts";
