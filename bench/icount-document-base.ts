/**
 * Question: how many machine instructions do the document-base algorithms
 * cost, apart from parsing? A workload for `../shared/tools/icount` (see
 * bench/icount-workload.ts for the method: run with N rounds and with 1;
 * the difference is N - 1 rounds of steady work).
 *
 *   ../shared/tools/icount -- node_modules/.bin/node --single-threaded bench/icount-document-base.ts JOB ROUNDS
 *
 * Every tree is built once, before the first round; each round then does:
 * - `plain`: a new context over a parse5 document of 20,000 elements (no
 *   `<base>`: the first-base search walks it all), `baseURI` of every
 *   element, dispose;
 * - `xml-base`: the same with xmlBase on and `xml:base` on every 10th element;
 * - `mutate`: over one parse5 context with xmlBase and a listener, 500
 *   times: insert a `<base href>` at the start of the head, remove it, and
 *   change an xml:base value (each reported), reading a base URL after each;
 * - `shadow`: a new context over a parse5 document of 2,000 declarative
 *   shadow roots and 2,000 ordinary templates, `nodeDocumentURL` and
 *   `baseURI` of a link inside each, dispose;
 * - `dom`: a new observing context over a jsdom document of 5,000 elements
 *   under a `<base>`, `baseURI` of every element, then 200 href changes of
 *   the base (observed), dispose;
 * - `none`: nothing (the start-up to subtract).
 *
 * @module
 */

import { type DefaultTreeAdapterMap, defaultTreeAdapter, html as parse5Html, parse } from "parse5";
import {
  baseURI,
  createDocumentContext,
  type DocumentBaseTreeAdapter,
  domTreeAdapter,
  nodeDocumentURL,
  parse5TreeAdapter,
  XML_NAMESPACE,
} from "../src/document-base/index.ts";
import { findInclusiveDescendant, type LooseAdapter } from "../src/document-base/tree-walk.ts";

const [job = "none", roundsText = "1"] = process.argv.slice(2);
const rounds = Number(roundsText);
const url = "https://example.com/docs/page.html";
const loose = parse5TreeAdapter as unknown as DocumentBaseTreeAdapter;
type P = DefaultTreeAdapterMap;

/** Elements in tree order, template contents excluded. */
function elementsOf(adapter: DocumentBaseTreeAdapter, root: unknown): unknown[] {
  const out: unknown[] = [];
  const loose = adapter as unknown as LooseAdapter;
  findInclusiveDescendant(loose, root as object, (node) => (loose.isElementNode(node) && out.push(node), false), false);
  return out;
}

function generatedHTML(elements: number): string {
  const section = '<section><h2>T</h2><p>x <a href="next.html">a</a> <em>e</em>.</p><ul><li><a href="#f">f</a></li><li><img src="p.png"></li></ul></section>';
  return `<!doctype html><html><head><title>t</title><link rel="stylesheet" href="a.css"></head><body>${section.repeat((elements - 5) / 10)}</body></html>`;
}

function shadowHTML(count: number): string {
  let body = "";
  for (let i = 0; i < count; i++) {
    body += `<div><template shadowrootmode="open"><a href="s${i}">s</a></template></div><template><a href="t${i}">t</a></template>`;
  }
  return `<!doctype html><html><head><base href="/b/"></head><body>${body}</body></html>`;
}

let sink = 0;
let setup: (() => Promise<void>) | undefined;
let work: () => void;

switch (job) {
  case "plain":
  case "xml-base": {
    const xmlBase = job === "xml-base";
    const document = parse(generatedHTML(20005));
    const elements = elementsOf(loose, document);
    if (xmlBase) for (let i = 10; i < elements.length; i += 10) loose.setAttribute(elements[i], XML_NAMESPACE, "base", "s/", "xml");
    work = () => {
      const context = createDocumentContext(parse5TreeAdapter, document, { url, xmlBase });
      for (const element of elements) sink += baseURI(context, element as P["element"]).length;
      context.dispose();
    };
    break;
  }
  case "mutate": {
    const document = parse(generatedHTML(2005));
    const elements = elementsOf(loose, document);
    const head = elements.find((e) => loose.getLocalName(e) === "head") as P["element"];
    const section = elements.find((e) => loose.getLocalName(e) === "section") as P["element"];
    const link = elements.find((e) => loose.getLocalName(e) === "a") as P["element"];
    loose.setAttribute(section, XML_NAMESPACE, "base", "x/", "xml");
    const context = createDocumentContext(parse5TreeAdapter, document, { url, xmlBase: true });
    context.onBaseURLChange((change) => void (sink += change.newBaseURL.length));
    for (const element of elements) sink += baseURI(context, element as P["element"]).length;
    work = () => {
      for (let i = 0; i < 500; i++) {
        const base = defaultTreeAdapter.createElement("base", parse5Html.NS.HTML, [{ name: "href", value: `/v${i}/` }]);
        defaultTreeAdapter.insertBefore(head, base, head.childNodes[0]!);
        context.childrenChanged(head, { added: [base] });
        sink += baseURI(context, link).length;
        defaultTreeAdapter.detachNode(base);
        context.childrenChanged(head, { removed: [base] });
        sink += baseURI(context, link).length;
        const old = loose.getAttribute(section, XML_NAMESPACE, "base");
        loose.setAttribute(section, XML_NAMESPACE, "base", `x${i}/`, "xml");
        context.attributeChanged(section, XML_NAMESPACE, "base", old);
        sink += baseURI(context, link).length;
      }
    };
    break;
  }
  case "shadow": {
    const document = parse(shadowHTML(2000));
    const links: unknown[] = [];
    const collect = (root: unknown): void => {
      for (const node of elementsOf(loose, root)) {
        if (loose.getLocalName(node) === "a") links.push(node);
        const content = loose.getTemplateContent(node);
        if (content !== null) collect(content);
      }
    };
    collect(document);
    work = () => {
      const context = createDocumentContext(parse5TreeAdapter, document, { url });
      for (const link of links) sink += nodeDocumentURL(context, link as P["element"]).length + baseURI(context, link as P["element"]).length;
      context.dispose();
    };
    break;
  }
  case "dom": {
    let document: Document;
    let elements: unknown[];
    let base: Element;
    setup = async () => {
      // (jsdom is loaded by this job only, so that the others start up without it.)
      const { JSDOM } = await import("jsdom");
      document = new JSDOM(`<head><base href="/b/"></head><body>${generatedHTML(5005)}`, { url }).window.document;
      elements = elementsOf(domTreeAdapter as unknown as DocumentBaseTreeAdapter, document);
      base = document.querySelector("base")!;
    };
    work = () => {
      const context = createDocumentContext(domTreeAdapter, document as never, { observe: true });
      for (const element of elements) sink += baseURI(context, element as never).length;
      for (let i = 0; i < 200; i++) {
        base.setAttribute("href", `/v${i}/`);
        sink += baseURI(context, elements[i] as never).length;
      }
      context.dispose();
    };
    break;
  }
  case "none":
    work = () => {};
    break;
  default:
    throw new Error(`unknown job ${job}`);
}

await setup?.();
for (let r = 0; r < rounds; r++) work();
if (sink < 0) console.log(sink);
