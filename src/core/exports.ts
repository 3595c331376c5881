/**
 * The names `docbase/core` and `docbase/core/utf-8` both export: everything
 * of core but `percentEncodeAfterEncoding`, which each entry point exports in
 * its own form (with every legacy encoder, or with UTF-8 alone).
 *
 * @module
 */

export { parseURL, type ParseURLOptions } from "./api-url-parser.ts";
export { URLArgumentError, isURLArgumentError } from "./argument-errors.ts";
export { basicURLParse, type BasicURLParseOptions, type StateOverride } from "./parser.ts";
export { serializeURL, serializePath, type SerializeURLOptions } from "./serializer.ts";
export {
  type URLRecord,
  createURLRecord,
  cloneURLRecord,
  pathSegments,
  isSpecialScheme,
  defaultPort,
  includesCredentials,
  cannotHaveUsernamePasswordPort,
} from "./url-record.ts";
export { parseHost, parseOpaqueHost, domainToASCII } from "./host.ts";
export { parseIPv4, serializeIPv4, endsInANumber } from "./ipv4.ts";
export { parseIPv6, serializeIPv6 } from "./ipv6.ts";
export { urlOrigin, serializeOrigin, type Origin } from "./origin.ts";
export { URL } from "./url.ts";
export { URLSearchParams } from "./url-search-params.ts";
export { parseFormURLEncoded, serializeFormURLEncoded, type NameValue } from "./form-urlencoded.ts";
export {
  type PercentEncodeSet,
  c0ControlPercentEncodeSet,
  fragmentPercentEncodeSet,
  queryPercentEncodeSet,
  specialQueryPercentEncodeSet,
  pathPercentEncodeSet,
  userinfoPercentEncodeSet,
  componentPercentEncodeSet,
  formURLEncodedPercentEncodeSet,
  utf8PercentEncodeString,
  percentDecodeString,
  percentDecodeBytes,
} from "./percent-encoding.ts";
export {
  getEncoding,
  getEncodingLabels,
  encodingNames,
  getOutputEncoding,
  resolveEncodingLabel,
  UnknownEncodingError,
  isUnknownEncodingError,
  type EncodingName,
  type OutputEncodingName,
} from "./encoding.ts";
export { validationErrorTypes, type ValidationErrorType, type ValidationError } from "./validation-errors.ts";
export { validateURL, type ValidateURLOptions, type ValidateURLResult } from "./validate-url.ts";
