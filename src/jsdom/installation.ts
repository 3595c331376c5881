/**
 * What an installation is to its caller: the options of `install`, the
 * handle it returns, and the warnings and base-URL changes that handle
 * reports.
 *
 * @module
 */

import type { BaseURLChange } from "../document-base/index.ts";
import type { DocumentLike, NodeLike, WindowLike } from "./window.ts";

/**
 * Options of {@link install}.
 *
 * @example
 * ```ts
 * const options: InstallOptions = { xmlBase: true };
 * ```
 */
export interface InstallOptions {
  /**
   * Resolve `xml:base` attributes (XML Base), as older HTML drafts required:
   * those in the XML namespace, and on SVG and MathML elements the
   * `xml:base` the HTML parser leaves without a namespace (HTML 5's parser
   * put it in the XML namespace). Off by default: browsers ignore xml:base
   * today.
   */
  readonly xmlBase?: boolean | undefined;
  /**
   * Give `<iframe srcdoc>` elements an about:srcdoc document parsed from the
   * attribute (default true). Scripts in it run when the window runs scripts.
   */
  readonly srcdoc?: boolean | undefined;
}

/**
 * A base-URL change in one of the installation's documents: the affected
 * root nodes (the whole document, an element whose xml:base changed, a moved
 * subtree), the old and the new base URL. Reported when docbase observes it
 * (see {@link Installation.onBaseURLChange}).
 *
 * @example
 * ```ts
 * handle.onBaseURLChange(({ document, oldBaseURL, newBaseURL }) => console.log(document.URL, oldBaseURL, "→", newBaseURL));
 * ```
 */
export interface JSDOMBaseURLChange {
  readonly reason: BaseURLChange["reason"];
  readonly document: DocumentLike;
  readonly roots: readonly NodeLike[];
  readonly oldBaseURL: string;
  readonly newBaseURL: string;
}

/**
 * What {@link install} returns.
 *
 * @example
 * ```ts
 * const handle = install(window);
 * const stop = handle.onBaseURLChange((change) => console.log(change.newBaseURL));
 * stop();
 * handle.uninstall(); // plain jsdom again
 * ```
 */
export interface Installation {
  /** The window it was installed in. */
  readonly window: WindowLike;
  /**
   * Calls `listener` when a base URL in the window's documents (its frames'
   * documents included) is observed to have changed: at the next read
   * through docbase (a URL getter, `baseURI`, a frame's `contentDocument`),
   * or in a microtask after the change (when the MutationObserver delivers
   * its records, or after jsdom changes the document's URL), whichever comes
   * first. Changes between two observations are coalesced: one call, from
   * the base URL last reported to the current one, and none when the base
   * URL is back where it was (1,000 `<base>` toggles with no read in between
   * give no call; a read after each gives 1,000). Returns a function that
   * removes the listener.
   *
   * Why not one call per intermediate state: nothing can have read the base
   * URL in between, a browser has no such event at all, and replaying every
   * intermediate tree would need a synchronous hook into every jsdom
   * mutation, which costs every page what only a listener would use.
   */
  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void;
  /**
   * What docbase noticed and cannot mend in jsdom, for the window's
   * documents and its frames', in the order noticed (checked once per
   * document, when it is activated). Today one kind: `late-encoding` — a
   * document whose `<meta charset>` (or `http-equiv=content-type`) names
   * another encoding than the one jsdom decoded it with, as a page whose
   * declaration comes after its first 1,024 bytes (where the sniffing
   * prescan stops) is: a browser would "change the encoding" and reparse
   * (unless a BOM or the transport's charset fixed it), jsdom does not. Its
   * text and its query encoding are then jsdom's, not a browser's; pass the
   * encoding to JSDOM (`contentType: "text/html; charset=shift_jis"` with a
   * buffer, or a charset in the served Content-Type).
   */
  readonly warnings: readonly InstallationWarning[];
  /** Restores plain jsdom behaviour in the window and in the frames it installed into. */
  uninstall(): void;
}

/**
 * A warning of {@link Installation.warnings}.
 *
 * @example
 * ```ts
 * const warning: InstallationWarning = {
 *   type: "late-encoding", document, declared: "Shift_JIS", used: "windows-1252",
 *   message: "the document declares Shift_JIS in a <meta>, but jsdom decoded it as windows-1252 …",
 * };
 * ```
 */
export interface InstallationWarning {
  readonly type: "late-encoding";
  readonly document: DocumentLike;
  /** The encoding the document's `<meta>` declares (after the HTML Standard's UTF-16 → UTF-8 and x-user-defined → windows-1252). */
  readonly declared: string;
  /** The encoding jsdom decoded it with (`document.characterSet`). */
  readonly used: string;
  readonly message: string;
}
