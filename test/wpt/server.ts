/**
 * A small stand-in for wptserve, the web-platform-tests server: it serves the
 * vendored WPT files (test/fixtures/wpt/) at their WPT paths from 127.0.0.1,
 * with only what the selected tests need of wptserve:
 *
 * - `X.window.html` wraps `X.window.js` in a test page (wptserve's
 *   WindowHandler), with the `// META: script=` and `title=` lines;
 * - files with `.sub.` in their name get wptserve's template substitution
 *   (`{{host}}`, `{{ports[http][0]}}`, `{{domains[www]}}`, `{{GET[name]}}`, …);
 * - one of wpt's Python handlers, `url/resources/percent-encoding.py`,
 *   reimplemented in TypeScript;
 * - `/resources/testharnessreport.js` is the runner's reporter (see
 *   test/wpt/runner.ts), as jsdom's own WPT runner answers that path.
 *
 * Everything else (another `.py`, a missing file, a path outside the tree) is
 * a 404. Pages are addressed as `http://localhost:<port>/`, and wpt's other
 * hosts (`www`, `www1`, `www2`, `alt`) are `*.localhost`: every one of them
 * is this server, as every wpt host is wptserve. The runner's jsdom reaches
 * them through {@link loopbackInterceptor}; `get-host-info.sub.js` names
 * 127.0.0.1 as the "remote" host of localhost, where the second port
 * listens.
 *
 * @module
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import type { ResourcesOptions } from "jsdom";
import { vendoredWPTRoot } from "../wpt-data.ts";

/**
 * A running server.
 *
 * @example
 * ```ts
 * const server = await startWPTServer();
 * server.url("dom/nodes/Node-baseURI.html"); // "http://localhost:40123/dom/nodes/Node-baseURI.html"
 * await server.close();
 * ```
 */
export interface WPTServer {
  /** `http://localhost:<port>`, the origin the tests run at. */
  readonly origin: string;
  /** The URL of a WPT path (no leading slash), with an optional `?query`. */
  url(path: string, query?: string): string;
  close(): Promise<void>;
}

/**
 * The runner's stand-in for wpt's `resources/testharnessreport.js`: it hands
 * the harness to the runner (test/wpt/runner.ts).
 *
 * @example
 * ```ts
 * reporterScript; // "window.__docbaseWPTReporter(window);\n"
 * ```
 */
export const reporterScript = "window.__docbaseWPTReporter(window);\n";

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html",
  ".htm": "text/html",
  ".xhtml": "application/xhtml+xml",
  ".xht": "application/xhtml+xml",
  ".js": "text/javascript",
  ".json": "application/json",
  ".css": "text/css",
  ".txt": "text/plain",
};

/** What a `.sub.` template may name, from the two ports the server listens on. */
interface Substitutions {
  readonly ports: readonly [number, number];
  readonly query: URLSearchParams;
  readonly requestURL: URL;
}

/**
 * Reads the `// META: key=value` lines at the top of a `.window.js` or `.any.js`
 * file, as wptserve does (consecutive `//` comment lines from the first line).
 *
 * @example
 * ```ts
 * scriptMetadata("// META: script=/common/a.js\n// META: variant=?x\ntest(...)");
 * // [["script", "/common/a.js"], ["variant", "?x"]]
 * ```
 */
export function scriptMetadata(source: string): Array<[string, string]> {
  const metadata: Array<[string, string]> = [];
  for (const line of source.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("//")) break;
    const match = /^\/\/\s*META:\s*(\w+)=(.*)$/.exec(trimmed);
    if (match !== null) metadata.push([match[1]!, match[2]!.trim()]);
  }
  return metadata;
}

/**
 * The variants a test page runs as: `<meta name="variant" content="…">` in a
 * page, `// META: variant=…` in a `.window.js` file; `[""]` when there is none.
 *
 * @example
 * ```ts
 * testVariants("url/url-setters-a-area.window.js"); // ["?include=file", "?include=javascript", …]
 * ```
 */
export function testVariants(path: string): string[] {
  const source = readFileSync(join(vendoredWPTRoot, path), "utf8");
  const variants = path.endsWith(".js")
    ? scriptMetadata(source).filter(([key]) => key === "variant").map(([, value]) => value)
    : [...source.matchAll(/<meta\s+name=["']?variant["']?\s+content=["']([^"']*)["']/g)].map((match) => match[1]!);
  return variants.length === 0 ? [""] : variants;
}

/**
 * The page a test runs in: `X.window.js` runs in `X.window.html`.
 *
 * @example
 * ```ts
 * testPagePath("url/toascii.window.js"); // "url/toascii.window.html"
 * testPagePath("url/a-element.html"); // "url/a-element.html"
 * ```
 */
export function testPagePath(path: string): string {
  return path.endsWith(".window.js") ? `${path.slice(0, -".js".length)}.html` : path;
}

function escapeHTML(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll('"', "&quot;");
}

/**
 * The page wptserve's WindowHandler makes of a `.window.js` file: its own
 * markup (charset, the harness, the `META: script`s, the log, the file), not
 * a copy of wptserve's.
 */
function windowTestPage(scriptPath: string, source: string): string {
  const metadata = scriptMetadata(source);
  const titles = metadata.filter(([key]) => key === "title").map(([, value]) => `<title>${escapeHTML(value)}</title>`);
  const scripts = metadata.filter(([key]) => key === "script").map(([, value]) => `<script src="${escapeHTML(value)}"></script>`);
  return [
    "<!doctype html>",
    "<meta charset=utf-8>",
    ...titles,
    `<script src="/resources/testharness.js"></script>`,
    `<script src="/resources/testharnessreport.js"></script>`,
    ...scripts,
    "<div id=log></div>",
    `<script src="/${escapeHTML(scriptPath)}"></script>`,
    "",
  ].join("\n");
}

/**
 * wptserve's template substitution (`{{…}}` in a `.sub.` file), for the
 * names the selected tests use. An unknown name throws, so that a test
 * needing more of wptserve fails loudly instead of running on a wrong page.
 */
function substitute(template: string, substitutions: Substitutions, escape: (text: string) => string): string {
  const { ports, query, requestURL } = substitutions;
  const hostNames: Readonly<Record<string, string>> = { "": "localhost", www: "www.localhost", www1: "www1.localhost", www2: "www2.localhost" };
  return template.replace(/\{\{([^}]*)\}\}/g, (whole, name: string) => {
    let match: RegExpExecArray | null;
    if (name === "host") return "localhost";
    if ((match = /^ports\[(https?)\]\[([01])\]$/.exec(name)) !== null) {
      // Deviation: no HTTPS listener; no selected test loads anything over HTTPS, so its ports are only named.
      return match[1] === "http" ? String(ports[Number(match[2])]) : String(8443 + Number(match[2]));
    }
    if ((match = /^domains\[(\w*)\]$/.exec(name)) !== null && hostNames[match[1]!] !== undefined) return hostNames[match[1]!]!;
    if ((match = /^hosts\[(alt)?\]\[(\w*)\]$/.exec(name)) !== null && hostNames[match[2]!] !== undefined) {
      return match[1] === "alt" ? `${match[2] === "" ? "" : `${match[2]}.`}alt.localhost` : hostNames[match[2]!]!;
    }
    if ((match = /^GET\[(.*)\]$/.exec(name)) !== null) return escape(query.get(match[1]!) ?? "");
    if ((match = /^location\[(\w+)\]$/.exec(name)) !== null) {
      const parts: Readonly<Record<string, string>> = {
        host: requestURL.host, hostname: requestURL.hostname, port: requestURL.port, scheme: requestURL.protocol.slice(0, -1),
        server: requestURL.origin, path: requestURL.pathname, pathname: requestURL.pathname, query: requestURL.search,
      };
      if (parts[match[1]!] !== undefined) return parts[match[1]!]!;
    }
    throw new Error(`test/wpt/server.ts cannot substitute ${whole}`);
  });
}

/**
 * `url/resources/percent-encoding.py`: a page in the requested encoding with
 * one `<a>` whose query and fragment are the decoded `value` (base64 of
 * UTF-8), written as hexadecimal character references so that the HTML
 * parser, not the server, puts the code points in.
 */
function percentEncodingHandler(query: URLSearchParams, response: ServerResponse): void {
  // wptserve decodes the query as application/x-www-form-urlencoded, so a base64 "+" arrives as a space: undo it.
  const value = (query.get("value") ?? "").replaceAll(" ", "+");
  const encoding = query.get("encoding") ?? "";
  let references = "";
  for (const character of Buffer.from(value, "base64").toString("utf8")) {
    references += `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};`;
  }
  response.writeHead(200, { "content-type": `text/html;charset=${encoding}` });
  response.end(`<!doctype html>\n<a href="https://doesnotmatter.invalid/?${references}#${references}">test</a>\n`);
}

const handlers: Readonly<Record<string, (query: URLSearchParams, response: ServerResponse) => void>> = {
  "/url/resources/percent-encoding.py": percentEncodingHandler,
};

function notFound(response: ServerResponse, why: string): void {
  response.writeHead(404, { "content-type": "text/plain" }).end(why);
}

function handle(request: IncomingMessage, response: ServerResponse, ports: readonly [number, number]): void {
  const requestURL = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
  const pathname = decodeURIComponent(requestURL.pathname);
  const query = requestURL.searchParams;
  if (pathname === "/resources/testharnessreport.js") {
    response.writeHead(200, { "content-type": "text/javascript" }).end(reporterScript);
    return;
  }
  const handler = handlers[pathname];
  if (handler !== undefined) {
    handler(query, response);
    return;
  }
  if (pathname.endsWith(".py") || pathname.endsWith(".headers")) {
    notFound(response, `no TypeScript handler for ${pathname}`);
    return;
  }
  const file = resolve(vendoredWPTRoot, `.${pathname}`);
  if (!file.startsWith(vendoredWPTRoot + sep)) {
    notFound(response, "outside the WPT tree");
    return;
  }
  const isWindowTest = pathname.endsWith(".window.html");
  const source = isWindowTest ? `${file.slice(0, -".html".length)}.js` : file;
  if (!existsSync(source) || !statSync(source).isFile()) {
    notFound(response, `not vendored: ${pathname}`);
    return;
  }
  const contentType = contentTypes[extname(file)] ?? "application/octet-stream";
  let body: Buffer | string = readFileSync(source);
  if (isWindowTest) body = windowTestPage(pathname.slice(1, -".html".length) + ".js", body.toString("utf8"));
  if (/\.sub\.\w+$/.test(pathname)) {
    const escape = contentType.includes("html") ? escapeHTML : (text: string) => text;
    try {
      body = substitute(body.toString("utf8"), { ports, query, requestURL }, escape);
    } catch (error) {
      response.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      return;
    }
  }
  response.writeHead(200, { "content-type": contentType }).end(body);
}

/** An interceptor of jsdom's requests (`resources: { interceptors }`). */
type JSDOMInterceptor = NonNullable<ResourcesOptions["interceptors"]>[number];

/**
 * The runner's hosts file: jsdom's requests to `localhost` and `*.localhost`
 * go to 127.0.0.1, the same port, as wpt's hosts all lead to wptserve. The
 * request is otherwise jsdom's own (method, headers, cookies, referrer).
 *
 * @example
 * ```ts
 * new JSDOM(html, { url: server.url("a.html"), resources: { interceptors: [loopbackInterceptor] } });
 * ```
 */
export const loopbackInterceptor: JSDOMInterceptor = (dispatch) => (options, handler) => {
  const origin = options.origin === undefined ? null : new URL(String(options.origin));
  if (origin === null || !(origin.hostname === "localhost" || origin.hostname.endsWith(".localhost"))) return dispatch(options, handler);
  return dispatch({ ...options, origin: `${origin.protocol}//127.0.0.1:${origin.port}` }, handler);
};

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolveListen);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("test/wpt/server.ts: no port");
  return address.port;
}

/**
 * Starts the server on two random ports of 127.0.0.1 (`ports[http][0]`, where
 * the tests run, and `ports[http][1]`, wpt's second port).
 *
 * @example
 * ```ts
 * const server = await startWPTServer();
 * const response = await fetch(server.url("url/a-element.html", "?include=file"));
 * await server.close();
 * ```
 */
export async function startWPTServer(): Promise<WPTServer> {
  const ports: [number, number] = [0, 0];
  const servers = [0, 1].map(() => createServer((request, response) => {
    try {
      handle(request, response, ports);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    }
  }));
  ports[0] = await listen(servers[0]!);
  ports[1] = await listen(servers[1]!);
  const origin = `http://localhost:${ports[0]}`;
  return {
    origin,
    url: (path, query = "") => `${origin}/${path}${query}`,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      }
    },
  };
}
