/**
 * What the other layers of this package (the jsdom plugin) use from
 * document-base beyond its public face (index.ts): the implementation
 * behind a `DocumentContext`. Not exported from the package.
 *
 * @module
 */

export type { Context } from "./context.ts";
export { contextImpl } from "./document-context.ts";
