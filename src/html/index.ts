/**
 * The HTML facts every layer above core reads, each stated once: the
 * namespaces, the catalogue of URL-bearing attributes, the encoding a
 * `<meta>` declares, which element is the first `<base href>` and the
 * head, and which elements can host a declarative shadow root. Data and
 * small pure functions; no trees of its own.
 *
 * Internal layer: document-base re-exports the namespaces and the shadow
 * host names, and links and url-utils the catalogue, as their public names.
 *
 * @module
 */

export { HTML_NAMESPACE, SVG_NAMESPACE, MATHML_NAMESPACE, XML_NAMESPACE, XLINK_NAMESPACE, XMLNS_NAMESPACE } from "./namespaces.ts";
export {
  catalogue,
  type AttributeKind,
  type AttributeLoad,
  type CatalogueEntry,
  type URLReflection,
  type ReflectedURLAttributeName,
  type ReflectedURLAttributeKind,
} from "./url-attribute-catalogue.ts";
export { linkTypesLoad } from "./link-types.ts";
export { extractCharacterEncodingFromMeta, metaDeclaredEncoding, changedEncoding } from "./encoding-declaration.ts";
export {
  isBaseElement,
  isBaseElementWithHref,
  isParsedBaseElementWithHref,
  firstElementChild,
  headOf,
  type ElementTree,
  type ParsedElement,
} from "./head-and-base.ts";
export { shadowRootModeState, isValidCustomElementName, isValidShadowHostName, type ShadowRootModeState } from "./shadow-host.ts";
export { parseMIMEType, isHTMLPage, type MIMEType } from "./mime-type.ts";
