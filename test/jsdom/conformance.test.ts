// docbase/jsdom never turns a value plain jsdom gets right into a wrong one:
// each scenario runs in a plain jsdom window and in an installed one, and
// both must give the values the HTML Standard (and Chromium) give.
//
// - Frames loaded from a URL have their own encoding: URL queries in them use
//   it, not their container's (WPT url/percent-encoding.window.js, issue 19.1).
// - A same-document change of the document's URL (pushState, replaceState, a
//   fragment navigation, reconfigure) moves the fallback base URL, and every
//   URL getter follows (WPT html/semantics/forms/form-submission-0/
//   formAction_document_address.html, issue 19.2).
// - onBaseURLChange reports the changes docbase observes, coalesced between
//   two observations (issue 16).
//
// Frames are served by a node:http server on 127.0.0.1 started here; every
// wait on it is bounded.
import { createServer, type Server } from "node:http";
import fc from "fast-check";
import { JSDOM } from "jsdom";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { install, type Installation, type JSDOMBaseURLChange } from "../../src/jsdom/index.ts";

type Window = JSDOM["window"];
type AnyElement = HTMLElement & Record<string, unknown>;

/** The frame documents: å (U+00E5) in a query, written as a character reference so that any encoding carries it. */
const frameBody = `<a href="https://x.invalid/?&#xE5;">a</a><area href="https://x.invalid/?&#xE5;"><img src="https://x.invalid/?&#xE5;"><form action="https://x.invalid/?&#xE5;"><button formaction="https://x.invalid/?&#xE5;">b</button></form>`;
const frames: Record<string, { contentType: string; body: string }> = {
  "/frame-windows-1252": { contentType: "text/html;charset=windows-1252", body: frameBody },
  "/frame-utf-8": { contentType: "text/html;charset=utf-8", body: frameBody },
  "/frame-meta-windows-1252": { contentType: "text/html", body: `<meta charset="windows-1252">${frameBody}` },
  // No label anywhere: the parent's encoding, as jsdom's (and the HTML Standard's) default for a same-origin frame.
  "/frame-unlabelled": { contentType: "text/html", body: frameBody },
};

let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    const frame = frames[request.url ?? ""];
    if (frame === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": frame.contentType }).end(Buffer.from(frame.body, "latin1"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const opened: JSDOM[] = [];
afterEach(() => {
  for (const dom of opened.splice(0)) dom.window.close();
});

/** Resolves when `target` fires `type`; rejects after five seconds, so that a test never hangs on the server. */
function event(target: EventTarget, type: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event within 5 s`)), 5000);
    target.addEventListener(type, () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Resolves once `predicate()` holds, checked every few milliseconds; rejects after five seconds. */
async function until(predicate: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !predicate(); ) {
    if (Date.now() > deadline) throw new Error("condition not met within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

type Variant = "plain" | "installed";
const variants: readonly Variant[] = ["plain", "installed"];

/** A window of `html` (bytes in `contentType`'s charset), plain or with docbase installed from beforeParse. */
function open(variant: Variant, html: string, options: { url?: string; contentType?: string; resources?: boolean } = {}): { window: Window; document: Document; handle: Installation | null; dom: JSDOM } {
  let handle: Installation | null = null;
  const contentType = options.contentType ?? "text/html;charset=utf-8";
  const bytes = Buffer.from(html, /windows-1252/.test(contentType) ? "latin1" : "utf8");
  const dom = new JSDOM(bytes, {
    url: options.url ?? `${origin}/dir/page.html`,
    contentType,
    ...(options.resources === true ? { resources: "usable" as const } : {}),
    ...(variant === "installed"
      ? {
          beforeParse(window: Window) {
            handle = install(window);
          },
        }
      : {}),
  });
  opened.push(dom);
  return { window: dom.window, document: dom.window.document, handle, dom };
}

function $(document: Document, selector: string): AnyElement {
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`no ${selector}`);
  return element as unknown as AnyElement;
}

/** What the frame's getters give for its å query, by getter. */
function frameValues(document: Document): Record<string, unknown> {
  return {
    characterSet: document.characterSet,
    "a.search": $(document, "a")["search"],
    "a.href": $(document, "a")["href"],
    "area.href": $(document, "area")["href"],
    "img.src": $(document, "img")["src"],
    "form.action": $(document, "form")["action"],
  };
}

/** The values a document with `characterSet` must give: å is %E5 in windows-1252, %C3%A5 in UTF-8. */
function expectedFrameValues(characterSet: string): Record<string, unknown> {
  const query = characterSet === "windows-1252" ? "?%E5" : "?%C3%A5";
  const url = `https://x.invalid/${query}`;
  return { characterSet, "a.search": query, "a.href": url, "area.href": url, "img.src": url, "form.action": url };
}

describe("a frame loaded from a URL encodes queries in its own encoding, not its container's", () => {
  const cases = [
    // [parent Content-Type, frame path, the frame's encoding]
    ["text/html;charset=utf-8", "/frame-windows-1252", "windows-1252"],
    ["text/html;charset=windows-1252", "/frame-utf-8", "UTF-8"],
    ["text/html;charset=utf-8", "/frame-meta-windows-1252", "windows-1252"],
    ["text/html;charset=windows-1252", "/frame-unlabelled", "windows-1252"],
    ["text/html;charset=utf-8", "/frame-unlabelled", "UTF-8"],
  ] as const;

  it.for(cases)("parser-made frame: parent %s, frame %s (%s)", async ([contentType, path, encoding]) => {
    const results: Record<string, unknown>[] = [];
    for (const variant of variants) {
      const { window, document } = open(variant, `<!doctype html><iframe src="${path}"></iframe>`, { contentType, resources: true });
      await event(window, "load");
      const frame = (document.querySelector("iframe") as HTMLIFrameElement).contentDocument!;
      results.push(frameValues(frame));
    }
    expect(results[0], "plain jsdom").toEqual(expectedFrameValues(encoding));
    expect(results[1], "installed").toEqual(expectedFrameValues(encoding));
    // button.formAction is docbase's only (plain jsdom lacks it).
  });

  it.for(cases)("script-made frame, read before and after its response: parent %s, frame %s (%s)", async ([contentType, path, encoding]) => {
    const results: Record<string, unknown>[] = [];
    for (const variant of variants) {
      const { window, document } = open(variant, `<!doctype html><body>`, { contentType, resources: true });
      await event(window, "load");
      const iframe = document.createElement("iframe");
      iframe.src = path;
      document.body.append(iframe);
      // Read the frame before its response arrives: its document is empty, with its container's encoding.
      expect(iframe.contentDocument!.baseURI).toBe(origin + path);
      await event(iframe, "load");
      const frame = iframe.contentDocument!;
      results.push(frameValues(frame));
      if (variant === "installed") expect($(frame, "button")["formAction"]).toBe(expectedFrameValues(encoding)["a.href"]);
    }
    expect(results[0], "plain jsdom").toEqual(expectedFrameValues(encoding));
    expect(results[1], "installed").toEqual(expectedFrameValues(encoding));
  });

  it.for(cases)("WPT's order (appended, then src set), and a link the container makes and moves in: parent %s, frame %s (%s)", async ([contentType, path, encoding]) => {
    const results: Record<string, unknown>[] = [];
    for (const variant of variants) {
      const { window, document } = open(variant, `<!doctype html><body>`, { contentType, resources: true });
      await event(window, "load");
      const iframe = document.body.appendChild(document.createElement("iframe"));
      // The initial about:blank document is read first, as a test harness would touch it.
      void iframe.contentDocument!.baseURI;
      iframe.src = path;
      await event(iframe, "load");
      const frame = iframe.contentDocument!;
      // An element of the container's document, moved into the frame's: its node document is the
      // frame's now, whose encoding its queries use (its getters are the container window's).
      const moved = document.createElement("a");
      moved.setAttribute("href", "https://x.invalid/?\u00E5");
      frame.body.append(moved);
      // Read first: nothing of the frame's own has been read through its getters yet.
      const movedSearch = (moved as unknown as AnyElement)["search"];
      results.push({ ...frameValues(frame), moved: movedSearch });
    }
    const wanted = { ...expectedFrameValues(encoding), moved: expectedFrameValues(encoding)["a.search"] };
    expect(results[0], "plain jsdom").toEqual(wanted);
    expect(results[1], "installed").toEqual(wanted);
  });

  it("about:blank and srcdoc frames stay UTF-8 documents under a windows-1252 container (docbase's rule; plain jsdom gives them the container's)", () => {
    const { document } = open("installed", `<!doctype html><iframe></iframe><iframe srcdoc="<a href='https://x.invalid/?&#xE5;'>a</a>"></iframe>`, {
      contentType: "text/html;charset=windows-1252",
    });
    const [blank, srcdoc] = [...document.querySelectorAll("iframe")].map((iframe) => (iframe as HTMLIFrameElement).contentDocument!);
    expect(blank!.characterSet).toBe("UTF-8");
    expect(srcdoc!.characterSet).toBe("UTF-8");
    expect($(srcdoc!, "a")["search"]).toBe("?%C3%A5");
    expect($(document, "iframe")["src"]).toBe("");
  });
});

describe("same-document changes of the document's URL move the fallback base URL", () => {
  const page = `<!doctype html><a href="x">a</a><area href="x"><img src="y.png"><link href="s.css"><form><button>b</button></form><blockquote cite="c"></blockquote>`;

  /** Every URL getter the WPT tests read, with plain jsdom's formAction stand-in (it lacks the IDL attribute). */
  function values(document: Document, variant: Variant): Record<string, unknown> {
    const button = $(document, "button");
    return {
      "document.URL": document.URL,
      "document.baseURI": document.baseURI,
      "a.baseURI": $(document, "a").baseURI,
      "a.href": $(document, "a")["href"],
      "a.pathname": $(document, "a")["pathname"],
      "area.href": $(document, "area")["href"],
      "img.src": $(document, "img")["src"],
      "link.href": $(document, "link")["href"],
      "form.action": $(document, "form")["action"],
      // "If the element has no formaction attribute, or its value is empty: the document's URL".
      "button.formAction": variant === "plain" ? document.URL : button["formAction"],
      "blockquote.cite": $(document, "blockquote")["cite"],
    };
  }

  /** The values for a document whose URL is `url`, without a base element. */
  function expected(url: string): Record<string, unknown> {
    const resolve = (input: string): string => new URL(input, url).href;
    return {
      "document.URL": url,
      "document.baseURI": url,
      "a.baseURI": url,
      "a.href": resolve("x"),
      "a.pathname": new URL("x", url).pathname,
      "area.href": resolve("x"),
      "img.src": resolve("y.png"),
      "link.href": resolve("s.css"),
      "form.action": url,
      "button.formAction": url,
      "blockquote.cite": resolve("c"),
    };
  }

  const steps: readonly [string, (dom: JSDOM) => void | Promise<void>, (origin: string) => string][] = [
    ["history.pushState", (dom) => dom.window.history.pushState(null, "", "/other/dummy.html"), (o) => `${o}/other/dummy.html`],
    ["history.replaceState", (dom) => dom.window.history.replaceState(null, "", "/third/page.html?q"), (o) => `${o}/third/page.html?q`],
    ["location.hash", (dom) => void (dom.window.location.hash = "frag"), (o) => `${o}/third/page.html?q#frag`],
    ["pushState to a fragment", (dom) => dom.window.history.pushState(null, "", "#second"), (o) => `${o}/third/page.html?q#second`],
    [
      "history.back()",
      async (dom) => {
        // jsdom traverses in a task (and fires the popstate events the earlier steps queued first).
        dom.window.history.back();
        await until(() => dom.window.document.URL.endsWith("#frag"));
      },
      (o) => `${o}/third/page.html?q#frag`,
    ],
    ["JSDOM reconfigure({ url })", (dom) => dom.reconfigure({ url: `${origin}/re/configured.html` }), (o) => `${o}/re/configured.html`],
  ];

  it("every URL getter follows each change at once, as plain jsdom's do", async () => {
    const seen: Record<Variant, Record<string, unknown>[]> = { plain: [], installed: [] };
    for (const variant of variants) {
      const { document, dom } = open(variant, page);
      // Read everything first, so that docbase has cached values to let go of.
      seen[variant].push(values(document, variant));
      for (const [, step] of steps) {
        await step(dom);
        seen[variant].push(values(document, variant));
      }
    }
    const wanted = [expected(`${origin}/dir/page.html`), ...steps.map(([, , url]) => expected(url(origin)))];
    expect(seen.plain, "plain jsdom").toEqual(wanted);
    expect(seen.installed, "installed").toEqual(wanted);
  });

  it("formAction_document_address.html's scenario: read while parsing, pushState from an inline script, read again", () => {
    // The WPT file's structure (its assertions, not its text): controls with formaction missing,
    // empty and valueless, read from an inline script, then history.pushState('', '', 'dummy.html').
    const html = `<!doctype html><body>
      <div id=missing><button type=submit>b</button><input type=submit></div>
      <div id=empty_string><button type=submit formaction="">b</button><input type=submit formaction=""></div>
      <div id=no_assigned_value><button type=submit formaction>b</button><input type=submit formaction></div>
      <script>
        const read = () => ["missing", "empty_string", "no_assigned_value"].flatMap((id) =>
          ["button", "input"].map((tag) => [id + " " + tag, document.querySelector("#" + id + " " + tag).formAction === document.location.href]));
        window.before = read();
        history.pushState("", "", "dummy.html");
        window.after = [["location", document.location.href], ...read()];
      </script>`;
    const results: Record<Variant, unknown> = { plain: null, installed: null };
    for (const variant of variants) {
      let handle: Installation | null = null;
      const dom = new JSDOM(html, {
        url: `${origin}/dir/page.html`,
        runScripts: "dangerously",
        ...(variant === "installed" ? { beforeParse: (window: Window) => void (handle = install(window)) } : {}),
      });
      opened.push(dom);
      void handle;
      const window = dom.window as unknown as { before: unknown; after: unknown };
      results[variant] = { before: window.before, after: window.after };
    }
    const all = (ok: boolean) => ["missing", "empty_string", "no_assigned_value"].flatMap((id) => ["button", "input"].map((tag) => [`${id} ${tag}`, ok]));
    const wanted = { before: all(true), after: [["location", `${origin}/dir/dummy.html`], ...all(true)] };
    expect(results.installed, "installed").toEqual(wanted);
    // Plain jsdom fails every formAction subtest (no button.formAction; input.formAction is not the
    // document's address), and passes the location one, which install keeps.
    const plain = results.plain as { before: [string, boolean][]; after: [string, unknown][] };
    expect(plain.after[0], "plain jsdom").toEqual(["location", `${origin}/dir/dummy.html`]);
    expect([...plain.before, ...plain.after.slice(1)].filter(([, ok]) => ok === true), "plain jsdom").toEqual([]);
  });

  it("an absolute <base href> stays the base URL in both", () => {
    for (const variant of variants) {
      const { window, document } = open(variant, `<!doctype html><base href="https://base.test/b/"><a href="x">a</a><form></form>`);
      // pushState's URL is parsed against the document base URL: an absolute one here.
      window.history.pushState(null, "", `${origin}/other/dummy.html`);
      expect([$(document, "a")["href"], document.baseURI, $(document, "form")["action"]], variant).toEqual([
        "https://base.test/b/x",
        "https://base.test/b/",
        `${origin}/other/dummy.html`,
      ]);
    }
  });

  it("a relative <base href> keeps its frozen base URL (the standard sets it only when the base element becomes first or its href changes)", () => {
    // https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url — the document's
    // URL changing is not one of the situations; plain jsdom resolves the base's href again.
    const { window, document } = open("installed", `<!doctype html><base href="sub/"><a href="x">a</a>`);
    window.history.pushState(null, "", "/other/dummy.html");
    expect($(document, "a")["href"]).toBe(`${origin}/dir/sub/x`);
    // Its href changed: resolved against the new fallback base URL.
    $(document, "base").setAttribute("href", "sub2/");
    expect($(document, "a")["href"]).toBe(`${origin}/other/sub2/x`);
  });

  it("onBaseURLChange reports a URL change without a read, within a microtask, and again after uninstall nothing", async () => {
    const { window, document, handle } = open("installed", page);
    void $(document, "a")["href"];
    const changes: JSDOMBaseURLChange[] = [];
    handle!.onBaseURLChange((change) => changes.push(change));
    window.history.pushState(null, "", "/other/dummy.html");
    expect(changes).toHaveLength(0);
    await Promise.resolve();
    expect(changes.map((c) => [c.reason, c.oldBaseURL, c.newBaseURL, c.document === document])).toEqual([
      ["document-base-url", `${origin}/dir/page.html`, `${origin}/other/dummy.html`, true],
    ]);
    // With a read in between, each change is reported at the read.
    window.history.replaceState(null, "", "/a/1.html");
    void $(document, "a")["href"];
    window.location.hash = "h";
    void document.baseURI;
    expect(changes.map((c) => c.newBaseURL).slice(1)).toEqual([`${origin}/a/1.html`, `${origin}/a/1.html#h`]);
    // Several without a read: one report, from the last reported base URL to the current one.
    window.history.pushState(null, "", "/b/1.html");
    window.history.pushState(null, "", "/b/2.html");
    await Promise.resolve();
    expect(changes.slice(3).map((c) => [c.oldBaseURL, c.newBaseURL])).toEqual([[`${origin}/a/1.html#h`, `${origin}/b/2.html`]]);
    handle!.uninstall();
    window.history.pushState(null, "", "/c/1.html");
    await Promise.resolve();
    expect(changes).toHaveLength(4);
    expect($(document, "a")["href"]).toBe(`${origin}/c/x`);
  });

  it("a window whose document tells no URL change: every read compares the URL, and still follows", () => {
    let handle: Installation | null = null;
    const dom = new JSDOM(`<a href="x">a</a>`, {
      url: `${origin}/dir/page.html`,
      beforeParse(window) {
        // Hide jsdom's hook from install() (as a jsdom without it would be), then put it back.
        const impl = (window as unknown as { _document: Record<string, unknown> })._document;
        const clear = impl["_clearBaseURLCache"];
        impl["_clearBaseURLCache"] = null;
        handle = install(window);
        impl["_clearBaseURLCache"] = clear;
      },
    });
    opened.push(dom);
    const changes: JSDOMBaseURLChange[] = [];
    handle!.onBaseURLChange((change) => changes.push(change));
    const document = dom.window.document;
    void $(document, "a")["href"];
    dom.window.history.pushState(null, "", "/other/dummy.html");
    expect($(document, "a")["href"]).toBe(`${origin}/other/x`);
    expect(changes.map((c) => c.newBaseURL)).toEqual([`${origin}/other/dummy.html`]);
  });

  it("a fragment navigation inside an about:blank frame changes its URL, not its container's, and it still matches about:blank", () => {
    for (const variant of variants) {
      const { document } = open(variant, `<!doctype html><a href="x">a</a><iframe></iframe>`);
      const frame = $(document, "iframe") as unknown as HTMLIFrameElement;
      frame.contentWindow!.location.hash = "moved";
      expect([document.baseURI, frame.contentDocument!.URL], variant).toEqual([`${origin}/dir/page.html`, "about:blank#moved"]);
      // https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url: "If
      // document's URL matches about:blank and document's about base URL is non-null, then return
      // document's about base URL" (matching ignores the fragment). Plain jsdom compares the whole
      // URL with "about:blank" and gives about:blank#moved.
      if (variant === "installed") expect(frame.contentDocument!.baseURI).toBe(`${origin}/dir/page.html`);
    }
  });
});

describe("onBaseURLChange reports the changes docbase observes, coalesced", () => {
  /** `count` changes of the base URL without a read, as the reproduction makes them. */
  async function toggles(count: number, how: "attribute" | "insertion", read: boolean): Promise<{ sync: number; changes: JSDOMBaseURLChange[]; href: unknown }> {
    const { document, handle } = open("installed", `<!doctype html><head><base href="/a/"></head><a href="x">x</a>`);
    const changes: JSDOMBaseURLChange[] = [];
    handle!.onBaseURLChange((change) => changes.push(change));
    const base = $(document, "base");
    const other = document.createElement("base");
    other.setAttribute("href", "/b/");
    for (let i = 0; i < count; i++) {
      if (how === "insertion") {
        if (i % 2 === 0) document.head.prepend(other);
        else other.remove();
      } else {
        base.setAttribute("href", i % 2 === 0 ? "/b/" : "/a/");
      }
      if (read) void $(document, "a")["href"];
    }
    const sync = changes.length;
    // The MutationObserver's records are delivered in a microtask.
    await Promise.resolve();
    return { sync, changes, href: $(document, "a")["href"] };
  }

  it.for(["attribute", "insertion"] as const)("1,000 <base> toggles by %s with a read after each: 1,000 reports, each as it is read", async (how) => {
    const { sync, changes } = await toggles(1000, how, true);
    expect(sync).toBe(1000);
    expect(changes).toHaveLength(1000);
    expect(changes.slice(0, 2).map((c) => [c.oldBaseURL.slice(origin.length), c.newBaseURL.slice(origin.length)])).toEqual([
      ["/a/", "/b/"],
      ["/b/", "/a/"],
    ]);
  });

  it.for(["attribute", "insertion"] as const)("1,000 <base> toggles by %s with no read: none, as the base URL is back where it was", async (how) => {
    const { sync, changes, href } = await toggles(1000, how, false);
    expect(sync).toBe(0);
    expect(changes).toHaveLength(0);
    expect(href).toBe(`${origin}/a/x`);
  });

  it.for(["attribute", "insertion"] as const)("1,001 <base> toggles by %s with no read: one report, within a microtask", async (how) => {
    const { sync, changes, href } = await toggles(1001, how, false);
    expect(sync).toBe(0);
    expect(changes.map((c) => [c.reason, c.oldBaseURL, c.newBaseURL])).toEqual([["document-base-url", `${origin}/a/`, `${origin}/b/`]]);
    expect(href).toBe(`${origin}/b/x`);
  });
});

describe("random sequences of URL changes, <base> changes and reads (fast-check)", () => {
  type Op =
    | { kind: "pushState" | "replaceState"; path: string }
    | { kind: "hash"; fragment: string }
    | { kind: "reconfigure"; path: string }
    | { kind: "insertBase" | "removeBase" | "read" }
    | { kind: "setHref"; href: string };
  const paths = ["/dir/page.html", "/other/dummy.html", "/a/b/c?q=1", "/é/ü.html", "/x/#frag", "/dir/"];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constantFrom("pushState" as const, "replaceState" as const), path: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constant("hash" as const), fragment: fc.constantFrom("", "frag", "ä", "x y") }),
    fc.record({ kind: fc.constant("reconfigure" as const), path: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constantFrom("insertBase" as const, "removeBase" as const, "read" as const) }),
    fc.record({ kind: fc.constant("setHref" as const), href: fc.constantFrom("x", "", "?q=å", "#h", "../up", "//other.test/p", "https://abs.test/") }),
  );
  const site = "https://example.test";

  function apply(dom: JSDOM, step: Op): void {
    const { window } = dom;
    const document = window.document;
    switch (step.kind) {
      case "pushState":
      case "replaceState":
        // Absolute: the URL is parsed against the document base URL, which a <base> may move elsewhere.
        window.history[step.kind](null, "", site + step.path);
        break;
      case "hash":
        window.location.hash = step.fragment;
        break;
      case "reconfigure":
        dom.reconfigure({ url: site + step.path });
        break;
      case "insertBase": {
        // An absolute base: plain jsdom's answer is the standard's (a relative one would be frozen).
        const base = document.createElement("base");
        base.setAttribute("href", "https://base.test/b/");
        document.head.prepend(base);
        break;
      }
      case "removeBase":
        document.querySelector("base")?.remove();
        break;
      case "setHref":
        document.querySelector("a")!.setAttribute("href", step.href);
        break;
      case "read":
        break;
    }
  }

  function read(document: Document): unknown[] {
    return [
      document.URL,
      document.baseURI,
      $(document, "a")["href"],
      $(document, "a")["search"],
      $(document, "a")["hash"],
      $(document, "img")["src"],
      $(document, "link")["href"],
      $(document, "form")["action"],
    ];
  }

  it("the installed window reads what the plain window reads, and onBaseURLChange's reports chain up to document.baseURI", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 16 }), (ops) => {
        const html = `<!doctype html><head></head><a href="x">a</a><img src="y.png"><link href="s.css"><form></form>`;
        const plain = new JSDOM(html, { url: `${site}/dir/page.html` });
        let handle: Installation | null = null;
        const installed = new JSDOM(html, { url: `${site}/dir/page.html`, beforeParse: (window) => void (handle = install(window)) });
        try {
          const changes: JSDOMBaseURLChange[] = [];
          handle!.onBaseURLChange((change) => changes.push(change));
          let reported = installed.window.document.baseURI;
          for (const step of ops) {
            apply(plain, step);
            apply(installed, step);
            if (step.kind !== "read") continue;
            expect(read(installed.window.document)).toEqual(read(plain.window.document));
            // Each report starts where the previous one ended, and the last ends at the current base URL.
            for (const change of changes.splice(0)) {
              expect(change.oldBaseURL).toBe(reported);
              expect(change.oldBaseURL).not.toBe(change.newBaseURL);
              reported = change.newBaseURL;
            }
            expect(reported).toBe(installed.window.document.baseURI);
          }
          expect(read(installed.window.document)).toEqual(read(plain.window.document));
        } finally {
          plain.window.close();
          installed.window.close();
        }
      }),
      { numRuns: 100, seed: 192 },
    );
  });
});
