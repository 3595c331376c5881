/**
 * What an installation is to its caller: the options of `install`, the
 * handle it returns, and the warnings and base-URL changes it reports.
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
   * Resolve `xml:base` attributes (XML Base), as older HTML drafts did: in the
   * XML namespace, and on SVG and MathML elements without one. Off by
   * default: browsers ignore xml:base today.
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
 * roots, the old and the new base URL (see {@link Installation.onBaseURLChange}).
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
  readonly window: WindowLike;
  /**
   * Calls `listener` when a base URL in the window's documents (frames
   * included) is observed to have changed: at the next read through docbase
   * or in a microtask after the change, whichever comes first. Changes
   * between two observations are coalesced into one call, or none when the
   * base URL is back where it was: nothing can have read it in between, and
   * a browser has no such event at all. Returns a function that removes it.
   */
  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void;
  /**
   * What docbase noticed and cannot mend in jsdom, in the window's documents
   * and its frames', checked once per document. One kind today:
   * `late-encoding`, a `<meta charset>` naming another encoding than jsdom
   * decoded with (a declaration past the prescan's 1,024 bytes), where a
   * browser would reparse. Pass the encoding to JSDOM (`contentType`) instead.
   */
  readonly warnings: readonly InstallationWarning[];
  /** Restores plain jsdom in the window and the frames it installed into. */
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
  /** The encoding the `<meta>` declares (UTF-16 read as UTF-8, x-user-defined as windows-1252, as HTML says). */
  readonly declared: string;
  /** `document.characterSet`. */
  readonly used: string;
  readonly message: string;
}
