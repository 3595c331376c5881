/**
 * Parsing a document that arrives in pieces: the tokenizer reads each piece
 * as far as it can (html-tokenizer.ts's `runChunk`) and the tree
 * construction (tree-construction.ts) takes its tokens as they come,
 * keeping no tree, so that memory follows the depth of open elements, not
 * the length of the document. It also says when the document base URL is
 * settled, which is what lets a streamed document's links be resolved
 * before its end.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#overview-of-the-parsing-model
 *
 * @module
 */

import { HTML_NAMESPACE, MATHML_NAMESPACE } from "../html/index.ts";
import { isInDocumentTree, type LeanDocument, type LeanElement, type LeanParent, type TagRecord } from "./parsed-source.ts";
import { TreeConstruction } from "./tree-construction.ts";

/**
 * A document parsed as it arrives: give it the text in pieces
 * ({@link write}); it records the start tags that may carry links
 * ({@link tags}, with where they are), as the whole-document parse does.
 *
 * @example
 * ```ts
 * const source = new StreamingSource(true);
 * let pending = "<head><base href=/x/></head><a href=y>";
 * const read = source.write(pending, 0, false); // reads what it can
 * source.write(pending.slice(read), read, true);
 * source.tags.map((t) => t.element.tagName); // ["base", "a"]
 * source.baseIsSettled(); // true
 * ```
 */
export class StreamingSource {
  /** The records made and not yet taken ({@link take}), in source order. */
  readonly tags: TagRecord[];
  /** The document node (the parent of the `html` element; no element lists its children). */
  readonly document: LeanDocument;
  private readonly construction: TreeConstruction;
  private ended = false;

  /** `keepStyleText`: false for a reading that reads no link (an SVG `style` then keeps no text). */
  constructor(scripting: boolean, keepStyleText = true, noteTargets = true) {
    this.construction = new TreeConstruction(scripting, null, keepStyleText, noteTargets);
    this.tags = this.construction.tags;
    this.document = this.construction.document;
  }

  /** The elements read so far that may be fragment targets (see ParsedSource.targetCandidates). */
  get targetCandidates(): readonly LeanElement[] {
    return this.construction.targetCandidates;
  }

  /**
   * Takes the target candidates read so far whose place in the tree is
   * final, or none: every element stays in the document's tree once the
   * frameset-ok flag is "not ok" (only a `frameset` start tag, while it is
   * "ok", takes the body out, with what is in it: https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody).
   */
  takeSettledTargetCandidates(): readonly LeanElement[] {
    const construction = this.construction;
    if (construction.framesetOkFlag || construction.targetCandidates.length === 0) return [];
    return construction.targetCandidates.splice(0);
  }

  /** The positions of the records' attributes (see StartTagSource). */
  get positions(): Int32Array {
    return this.construction.positions;
  }

  /**
   * Parses `text`, which starts at offset `origin` of the whole input and
   * continues the input from where the last call stopped; `final` when the
   * input ends with it. Returns how much of `text` was read: the caller
   * starts the next call's text with the rest.
   */
  write(text: string, origin: number, final: boolean): number {
    if (this.ended) throw new Error("StreamingSource: write after the final piece");
    this.ended = final;
    this.construction.origin = origin;
    return this.construction.tokenizer.runChunk(text, final);
  }

  /**
   * {@link write} for the input not read yet, `unread` (from offset
   * `origin` on): unless `final`, a CR that may be the first half of a
   * CR LF, or a high surrogate, at its end waits for what follows it.
   * Returns how much was read.
   */
  writeUnread(unread: string, origin: number, final: boolean): number {
    let inputEnd = unread.length;
    if (!final && inputEnd > 0) {
      const last = unread.charCodeAt(inputEnd - 1);
      if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) inputEnd--;
    }
    return this.write(inputEnd === unread.length ? unread : unread.slice(0, inputEnd), origin, final);
  }

  /** Removes the first `count` records (read by the caller); their attribute positions are reused once none is left. */
  take(count: number): void {
    this.tags.splice(0, count);
    if (this.tags.length === 0) this.construction.positionsLength = 0;
  }

  /** Whether `tag`'s element's text is all read: a `style` element's is once the parser has closed it (or the input has ended). */
  isComplete(tag: TagRecord): boolean {
    const element = tag.element;
    if (this.ended || element.tagName !== "style" || element.namespaceURI === MATHML_NAMESPACE) return true;
    return !this.construction.isOpen(element);
  }

  /** The first base element with an href in the order the parser made them (see {@link baseIsSettled}); null for none yet. */
  get firstBase(): LeanElement | null {
    return this.construction.firstBase;
  }

  /**
   * Whether something was inserted before a node that holds
   * {@link firstBase} (foster parenting, before a table): it, or what goes
   * into it later, may hold a base element that comes first in tree order.
   * The tree that would tell is not kept, so the base URL is then settled
   * only by reading the whole document again (see link-stream.ts).
   */
  get ambiguous(): boolean {
    return this.construction.fosterParentedBeforeFirstBase;
  }

  /** Whether `element` is in the document's tree (the parser can take the body out, for a `frameset`). */
  isInDocument(element: LeanElement): boolean {
    return isInDocumentTree(element);
  }

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
   * whether the first `base` element with an `href` in tree order is
   * known for good before the input ends: {@link firstBase} is in the
   * document and no later input can put another base element before it
   * in tree order, nor take it out of the tree.
   *
   * Elements the parser makes later go after the ones it has made, in
   * tree order, but for two exceptions: foster parenting inserts before
   * the last open table (so `firstBase` must not be in an open table,
   * and an insertion before one that holds it is {@link ambiguous}), and
   * a `frameset` start tag while the frameset-ok flag is "ok" removes the
   * body (so a base in the body is settled once the flag is "not ok").
   * A base in the head is settled at once: the head only ever grows at
   * its end, and nothing goes before it.
   */
  baseIsSettled(): boolean {
    const construction = this.construction;
    const base = construction.firstBase;
    if (base === null || construction.fosterParentedBeforeFirstBase) return false;
    let inDocument = false;
    let inHead = false;
    for (let n: LeanParent | null | undefined = base.parentNode; n !== null && n !== undefined; n = (n as LeanElement).parentNode) {
      if (n.nodeName === "#document") {
        inDocument = true;
        break;
      }
      const element = n as LeanElement;
      if (element.namespaceURI !== HTML_NAMESPACE) continue;
      if (element.tagName === "head") inHead = true;
      else if (element.tagName === "table" && construction.isOpen(element)) return false;
    }
    if (!inDocument) return false;
    return inHead || !construction.framesetOkFlag;
  }
}
