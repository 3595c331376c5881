/**
 * The external-link checker (src/cli/external) against local servers on
 * 127.0.0.1 that misbehave on purpose. Waits between attempts go through a
 * fake clock (recorded, not waited); timeouts are real but small, and the
 * bounds on time are wide multiples of them. Requests and the requests
 * open at once are counted by the server.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  createExternalChecker,
  type ExternalCheckerOptions,
  type ExternalOutcome,
  type ExternalTarget,
  formatExternalSummary,
  groupExternalLinks,
  isExternalCheckerError,
  parseStatusRanges,
  summarizeExternal,
} from "../../src/cli/external/index.ts";
import { isHTMLPage, parseMIMEType } from "../../src/html/index.ts";
import { parseHTTPDate } from "../../src/cli/external/http-date.ts";
import { parseRetryAfter } from "../../src/cli/external/retry-policy.ts";
import { closedPort, fakeClock, type Handler, type MisbehavingServer, startServer, testLookup } from "./external-server.ts";

const T0 = Date.UTC(2026, 0, 1);
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function server(routes: Record<string, Handler>): Promise<MisbehavingServer> {
  const s = await startServer(routes);
  cleanups.push(() => s.close());
  return s;
}

/** Runs one checker over `targets` with a fake clock and small timeouts; the outcomes by URL as given. */
async function run(targets: ExternalTarget[], options: ExternalCheckerOptions = {}) {
  const clock = fakeClock(T0);
  const checker = createExternalChecker({ timeout: 2000, connectTimeout: 2000, now: clock.now, sleep: clock.sleep, lookup: testLookup(), ...options });
  cleanups.push(() => checker.close());
  const outcomes: ExternalOutcome[] = [];
  for await (const outcome of checker.check(targets)) outcomes.push(outcome);
  await checker.close();
  const by = (url: string): ExternalOutcome => {
    const found = outcomes.find((o) => o.target.url === url);
    if (found === undefined) throw new Error(`no outcome for ${url}`);
    return found;
  };
  return { outcomes, by, waits: clock.waits, checker };
}

const ok: Handler = (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok");
const redirect =
  (status: number, location: string): Handler =>
  (_req, res) =>
    res.writeHead(status, { location }).end();
const page = (html: string | Uint8Array, headers: Record<string, string> = {}): Handler => (_req, res) =>
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(html);

describe("statuses, HEAD and GET", () => {
  it("asks with HEAD; a 405 or a 501 to HEAD, or a wrong status, gets a GET; a 500 to both is broken", async () => {
    const s = await server({
      "/ok": ok,
      "/head-405": (req, res) => res.writeHead(req.method === "HEAD" ? 405 : 200).end(),
      "/head-501": (req, res) => res.writeHead(req.method === "HEAD" ? 501 : 200).end(),
      "/head-404": (req, res) => res.writeHead(req.method === "HEAD" ? 404 : 200).end(),
      "/500": (_req, res) => res.writeHead(500).end(),
      "/gone": (_req, res) => res.writeHead(410).end(),
    });
    const u = (p: string): string => s.origin + p;
    const { by } = await run(["/ok", "/head-405", "/head-501", "/head-404", "/500", "/gone", "/missing"].map((p) => ({ url: u(p) })));
    expect(by(u("/ok"))).toMatchObject({ kind: "ok", severity: "ok", status: 200, message: "200 OK", attempts: 1 });
    expect(s.count("/ok", "HEAD")).toBe(1);
    expect(s.count("/ok", "GET")).toBe(0);
    for (const p of ["/head-405", "/head-501", "/head-404"]) {
      expect(by(u(p))).toMatchObject({ kind: "ok", status: 200, attempts: 2 });
      expect([s.count(p, "HEAD"), s.count(p, "GET")]).toEqual([1, 1]);
    }
    expect(by(u("/500"))).toMatchObject({ kind: "bad-status", severity: "error", status: 500, message: "500 Internal Server Error" });
    expect([s.count("/500", "HEAD"), s.count("/500", "GET")]).toEqual([1, 1]);
    expect(by(u("/gone"))).toMatchObject({ kind: "bad-status", status: 410, message: "410 Gone" });
    expect(by(u("/missing"))).toMatchObject({ kind: "bad-status", status: 404, message: "404 Not Found" });
  });

  it("asks only GET with method get, without reading the body; accepted statuses are configurable", async () => {
    const s = await server({ "/ok": ok, "/forbidden": (_req, res) => res.writeHead(403).end(), "/teapot": (_req, res) => res.writeHead(418).end() });
    const { by } = await run([{ url: `${s.origin}/ok` }, { url: `${s.origin}/forbidden` }, { url: `${s.origin}/teapot` }], {
      method: "get",
      accept: [[200, 299], 403],
    });
    expect(by(`${s.origin}/ok`).kind).toBe("ok");
    expect(by(`${s.origin}/forbidden`)).toMatchObject({ kind: "ok", status: 403 });
    expect(by(`${s.origin}/teapot`)).toMatchObject({ kind: "bad-status", status: 418 });
    expect(s.seen.every((r) => r.method === "GET")).toBe(true);
    expect(s.seen).toHaveLength(3);
  });

  it("sends the user agent", async () => {
    let agent: string | undefined;
    const s = await server({ "/ua": (req, res) => ((agent = req.headers["user-agent"]), ok(req, res, 1)) });
    await run([{ url: `${s.origin}/ua` }], { userAgent: "docbase-test/1 (+https://example.com/bot)" });
    expect(agent).toBe("docbase-test/1 (+https://example.com/bot)");
    await run([{ url: `${s.origin}/ua` }]);
    expect(agent).toMatch(/^docbase\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/docbase\/docbase\)$/);
  });
});

describe("retries and Retry-After", () => {
  it("waits as a 429's Retry-After says, in seconds and as an HTTP-date, then asks again", async () => {
    const s = await server({
      "/429-seconds": (_req, res, nth) => (nth === 1 ? res.writeHead(429, { "retry-after": "2" }).end() : ok(_req, res, nth)),
    });
    const a = await run([{ url: `${s.origin}/429-seconds` }]);
    expect(a.by(`${s.origin}/429-seconds`)).toMatchObject({ kind: "ok", attempts: 2 });
    expect(a.waits).toEqual([2000]);
    expect(s.count("/429-seconds")).toBe(2);

    const t = await server({
      "/429-date": (_req, res, nth) => (nth === 1 ? res.writeHead(429, { "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }).end() : ok(_req, res, nth)),
    });
    const b = await run([{ url: `${t.origin}/429-date` }]);
    expect(b.by(`${t.origin}/429-date`)).toMatchObject({ kind: "ok", attempts: 2 });
    expect(b.waits).toEqual([3000]);
  });

  it("a Retry-After beyond the maximum wait is 'rate limited' (could not be checked), and the host is not asked again meanwhile", async () => {
    const s = await server({ "/429-long": (_req, res) => res.writeHead(429, { "retry-after": "3600" }).end(), "/ok": ok });
    const { by, waits } = await run([{ url: `${s.origin}/429-long` }, { url: `${s.origin}/ok` }], { perHost: 1, maxRetryWait: 60_000 });
    expect(by(`${s.origin}/429-long`)).toMatchObject({ kind: "rate-limited", severity: "unchecked", status: 429, retryAfter: 3_600_000 });
    expect(by(`${s.origin}/429-long`).message).toBe(
      "rate limited: 429 Too Many Requests asks to wait 3600 s (Retry-After), more than the maximum wait of 60 s",
    );
    expect(by(`${s.origin}/ok`)).toMatchObject({ kind: "rate-limited", attempts: 0 });
    expect(waits).toEqual([]);
    expect(s.count("/429-long")).toBe(1);
    expect(s.count("/ok")).toBe(0);
  });

  it("a 429 that stays after the retries is rate limited; a 503 that stays is broken; 503 then 200 is fine", async () => {
    const s = await server({
      "/429": (_req, res) => res.writeHead(429).end(),
      "/503": (_req, res) => res.writeHead(503).end(),
      "/503-then-200": (_req, res, nth) => (nth === 1 ? res.writeHead(503, { "retry-after": "1" }).end() : ok(_req, res, nth)),
    });
    const a = await run([{ url: `${s.origin}/429` }], { retries: 2, retryWait: 500 });
    expect(a.by(`${s.origin}/429`)).toMatchObject({ kind: "rate-limited", severity: "unchecked", message: "rate limited: still 429 Too Many Requests after 3 attempts" });
    expect(a.waits).toEqual([500, 1000]);
    expect(s.count("/429")).toBe(3);

    const b = await run([{ url: `${s.origin}/503` }], { retries: 2, retryWait: 500 });
    expect(b.by(`${s.origin}/503`)).toMatchObject({ kind: "bad-status", severity: "error", status: 503, message: "503 Service Unavailable after 3 attempts" });
    expect(b.waits).toEqual([500, 1000]);
    expect(s.count("/503")).toBe(3);

    const c = await run([{ url: `${s.origin}/503-then-200` }]);
    expect(c.by(`${s.origin}/503-then-200`)).toMatchObject({ kind: "ok", attempts: 2 });
    expect(c.waits).toEqual([1000]);
    expect(s.count("/503-then-200")).toBe(2);
  });

  it("the exponential wait is capped by the maximum wait, and retries: 0 asks once", async () => {
    const s = await server({ "/503": (_req, res) => res.writeHead(503).end() });
    const a = await run([{ url: `${s.origin}/503` }], { retries: 3, retryWait: 4000, maxRetryWait: 10_000 });
    expect(a.waits).toEqual([4000, 8000, 10_000]);
    expect(s.count("/503")).toBe(4);
    await run([{ url: `${s.origin}/503` }], { retries: 0 });
    expect(s.count("/503")).toBe(5);
  });
});

describe("network failures: bounded in time, could not be checked", () => {
  it("a server that never answers, and one slower than the timeout, time out within the timeout", async () => {
    const timers: NodeJS.Timeout[] = [];
    cleanups.push(() => timers.forEach(clearTimeout));
    const s = await server({
      "/never": () => undefined,
      "/slow": (_req, res) => void timers.push(setTimeout(() => res.writeHead(200).end(), 60_000)),
    });
    const timeout = 300;
    const started = performance.now();
    const { by } = await run([{ url: `${s.origin}/never` }, { url: `${s.origin}/slow` }], { timeout, connectTimeout: timeout });
    const elapsed = performance.now() - started;
    for (const p of ["/never", "/slow"]) {
      expect(by(s.origin + p)).toMatchObject({ kind: "timeout", severity: "unchecked", status: null, attempts: 1 });
      expect(by(s.origin + p).failure?.code).toBe("timeout");
      // A timeout is not asked again: it would only double the wait on a dead server.
      expect(s.count(p)).toBe(1);
    }
    // Two requests at once, each cut at 300 ms: far from the 60 s the slow server takes.
    expect(elapsed).toBeLessThan(timeout * 10 + 10_000);
  });

  it("a connection that is never up is cut by the connect timeout", async () => {
    const { by } = await run([{ url: "http://hang.test/" }], { connectTimeout: 200, timeout: 30_000 });
    expect(by("http://hang.test/")).toMatchObject({ kind: "timeout", failure: { code: "connect-timeout" } });
  });

  it("a reset connection: HEAD falls back to GET, GET is retried, then it could not be checked", async () => {
    const s = await server({ "/reset": (req) => req.socket.destroy() });
    const { by, waits } = await run([{ url: `${s.origin}/reset` }], { retries: 2 });
    expect(by(`${s.origin}/reset`)).toMatchObject({ kind: "connection-reset", severity: "unchecked", attempts: 4 });
    expect([s.count("/reset", "HEAD"), s.count("/reset", "GET")]).toEqual([1, 3]);
    expect(waits).toEqual([1000, 2000]);
  });

  it("refused, DNS and TLS failures are said as such, without retries", async () => {
    const port = await closedPort();
    const s = await server({ "/ok": ok });
    const targets = [`http://127.0.0.1:${port}/`, "http://nx.test/", `https://127.0.0.1:${s.port}/ok`].map((url) => ({ url }));
    const { by, waits } = await run(targets);
    expect(by(`http://127.0.0.1:${port}/`)).toMatchObject({ kind: "connection-refused", severity: "unchecked", failure: { code: "ECONNREFUSED" }, attempts: 1 });
    expect(by("http://nx.test/")).toMatchObject({ kind: "dns-failure", severity: "unchecked", failure: { code: "ENOTFOUND" }, attempts: 1 });
    expect(by("http://nx.test/").message).toBe("DNS failure: getaddrinfo ENOTFOUND nx.test");
    expect(by(`https://127.0.0.1:${s.port}/ok`)).toMatchObject({ kind: "tls-error", severity: "unchecked", attempts: 1 });
    expect(waits).toEqual([]);
  });

  it("a DNS answer that comes too late (EAI_AGAIN) is asked again", async () => {
    const s = await server({ "/ok": ok });
    const url = `http://flaky.test:${s.port}/ok`;
    const { by, waits } = await run([{ url }]);
    expect(by(url)).toMatchObject({ kind: "ok", attempts: 2 });
    expect(waits).toEqual([1000]);
    expect(s.count("/ok")).toBe(1);
  });
});

describe("redirects", () => {
  it("follows a chain; a permanent first redirect (301, 308) is a warning naming the new URL, a 302 is not", async () => {
    const s = await server({
      "/r1": redirect(302, "/r2"),
      "/r2": redirect(307, "r3"),
      "/r3": ok,
      "/moved": redirect(301, "/moved2"),
      "/moved2": redirect(308, "/r3"),
      "/moved-then-temp": redirect(301, "/temp"),
      "/temp": redirect(302, "/r3"),
    });
    const u = (p: string): string => s.origin + p;
    const { by } = await run(["/r1", "/moved", "/moved-then-temp", "/temp"].map((p) => ({ url: u(p) })));
    expect(by(u("/r1"))).toMatchObject({
      kind: "ok", severity: "ok", status: 200, finalURL: u("/r3"), movedTo: null,
      redirects: [{ url: u("/r1"), status: 302, location: u("/r2") }, { url: u("/r2"), status: 307, location: u("/r3") }],
      message: `200 OK after 302 → ${u("/r2")}, 307 → ${u("/r3")}`,
    });
    expect(by(u("/moved"))).toMatchObject({ kind: "permanent-redirect", severity: "warning", movedTo: u("/r3"), message: `moved permanently (301) to ${u("/r3")}` });
    expect(by(u("/moved-then-temp"))).toMatchObject({ kind: "permanent-redirect", movedTo: u("/temp") });
    expect(by(u("/temp"))).toMatchObject({ kind: "ok", movedTo: null });
    // Every URL on the way asked once, however many chains pass through it.
    for (const p of ["/r1", "/r2", "/r3", "/moved", "/moved2", "/temp"]) expect(s.count(p)).toBe(1);
  });

  it("a loop and a chain longer than the limit are errors; a Location that is not a URL is an error", async () => {
    const s = await server({
      "/loop-a": redirect(302, "/loop-b"),
      "/loop-b": redirect(302, "/loop-a"),
      "/self": redirect(301, "/self"),
      "/bad-location": redirect(302, "http://exa mple.com/"),
      ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/hop/${i}`, redirect(302, `/hop/${i + 1}`)])),
    });
    const u = (p: string): string => s.origin + p;
    const { by } = await run(["/loop-a", "/self", "/hop/0", "/bad-location"].map((p) => ({ url: u(p) })), { maxRedirects: 3 });
    expect(by(u("/loop-a"))).toMatchObject({ kind: "redirect-loop", severity: "error", message: `redirect loop: ${u("/loop-a")} → ${u("/loop-b")} → ${u("/loop-a")}` });
    expect(by(u("/self"))).toMatchObject({ kind: "redirect-loop", severity: "error" });
    expect(by(u("/hop/0"))).toMatchObject({ kind: "too-many-redirects", severity: "error" });
    expect(by(u("/hop/0")).redirects).toHaveLength(4);
    expect(by(u("/bad-location"))).toMatchObject({ kind: "invalid-redirect", severity: "error" });
    expect([s.count("/loop-a"), s.count("/loop-b"), s.count("/self")]).toEqual([1, 1, 1]);
    expect([s.count("/hop/3"), s.count("/hop/4")]).toEqual([1, 0]);
  });

  it("never asks an excluded URL, not even at the end of a redirect; only http: and https: URLs are asked", async () => {
    const s = await server({ "/ok": ok, "/secret": ok, "/to-secret": redirect(302, "/secret"), "/to-mail": redirect(302, "mailto:a@example.com") });
    const u = (p: string): string => s.origin + p;
    const { by } = await run(
      [u("/secret"), u("/to-secret"), u("/to-mail"), "mailto:a@example.com", "ftp://example.com/f", "data:text/plain,x"].map((url) => ({ url })),
      { exclude: [/\/secret$/g] },
    );
    expect(by(u("/secret"))).toMatchObject({ kind: "excluded", severity: "skipped", message: "excluded by /\\/secret$/", attempts: 0 });
    expect(by(u("/to-secret"))).toMatchObject({ kind: "redirect-not-followed", severity: "unchecked" });
    expect(by(u("/to-mail"))).toMatchObject({ kind: "redirect-not-followed", finalURL: "mailto:a@example.com" });
    expect(s.count("/secret")).toBe(0);
    for (const url of ["mailto:a@example.com", "ftp://example.com/f", "data:text/plain,x"]) {
      expect(by(url)).toMatchObject({ kind: "unsupported-scheme", severity: "skipped", attempts: 0 });
    }
    expect(by("ftp://example.com/f").message).toBe("a ftp: URL: only http: and https: URLs are external links to check");
  });
});

describe("one request per URL per run", () => {
  it("spellings of one URL are one request; each target still gets its outcome", async () => {
    const s = await server({ "/ok": ok });
    const spellings = [`${s.origin}/ok`, `${s.origin}/./ok`, `HTTP://127.0.0.1:${s.port}/ok#x`, `${s.origin}/a/../ok`];
    const { outcomes, checker } = await run(spellings.map((url) => ({ url })));
    expect(outcomes).toHaveLength(4);
    expect(new Set(outcomes.map((o) => o.url))).toEqual(new Set([`${s.origin}/ok`]));
    expect(s.seen).toHaveLength(1);
    expect(checker.stats.requests).toBe(1);
  });

  it("a second check() of the same checker asks nothing again", async () => {
    const s = await server({ "/ok": ok, "/r": redirect(302, "/ok") });
    const clock = fakeClock(T0);
    const checker = createExternalChecker({ now: clock.now, sleep: clock.sleep });
    cleanups.push(() => checker.close());
    for await (const _ of checker.check([{ url: `${s.origin}/r` }]));
    for await (const o of checker.check([{ url: `${s.origin}/ok` }, { url: `${s.origin}/r` }])) expect(o.kind).toBe("ok");
    expect([s.count("/r"), s.count("/ok")]).toEqual([1, 1]);
  });

  it("groupExternalLinks makes one target per URL with its fragments and referrers", () => {
    const links = [
      { url: "https://EXAMPLE.com/guide#install", at: "a.html:3" },
      { url: "https://example.com/guide#usage", at: "b.html:9" },
      { url: "https://example.com/guide", at: "c.html:1" },
      { url: null, at: "d.html:2" },
      { url: "https://example.com/other#install", at: "a.html:4" },
    ];
    const groups = groupExternalLinks(links);
    expect(groups.map((g) => g.url)).toEqual(["https://example.com/guide", "https://example.com/other"]);
    expect([...groups[0]!.fragments]).toEqual(["install", "usage"]);
    expect(groups[0]!.referrers.map((l) => l.at)).toEqual(["a.html:3", "b.html:9", "c.html:1"]);
    expect(groups[0]!.fragmentReferrers.get("usage")!.map((l) => l.at)).toEqual(["b.html:9"]);
  });
});

describe("limits on open requests, counted by the servers", () => {
  /**
   * A handler that holds the requests of a run of `total` in batches: a
   * batch is answered once `limit` requests are open (or all that are left
   * of the run), after a pause in which a request beyond the limit would
   * arrive and be counted. A limiter that works reaches the limit exactly,
   * whatever the pause (the run would not end if it never reached it); the
   * pause only gives one that does not a chance to show it. Counts the most
   * open at once, in all and by host name.
   */
  function batches(limit: number, total: number): { handler: Handler; most: { all: number; byHost: Map<string, number> } } {
    const held: Array<() => void> = [];
    const openBy = new Map<string, number>();
    const most = { all: 0, byHost: new Map<string, number>() };
    let open = 0;
    let answered = 0;
    let releasing = false;
    const handler: Handler = (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      open++;
      openBy.set(host, (openBy.get(host) ?? 0) + 1);
      most.all = Math.max(most.all, open);
      most.byHost.set(host, Math.max(most.byHost.get(host) ?? 0, openBy.get(host)!));
      // Closed when the answer is handed over (before the client can read it), or when the client gives up.
      let closed = false;
      const close = (): void => {
        if (closed) return;
        closed = true;
        open--;
        answered++;
        openBy.set(host, openBy.get(host)! - 1);
      };
      res.once("finish", close);
      res.once("close", close);
      held.push(() => void res.writeHead(200).end());
      if (!releasing && open >= Math.min(limit, total - answered)) {
        releasing = true;
        setTimeout(() => {
          releasing = false;
          held.splice(0).forEach((answer) => answer());
        }, 20);
      }
    };
    return { handler, most };
  }

  it("no more than `concurrency` requests at once in all", async () => {
    const hold = batches(3, 12);
    const paths = Array.from({ length: 12 }, (_, i) => `/p${i}`);
    const s = await server(Object.fromEntries(paths.map((p) => [p, hold.handler])));
    // Twelve hosts: only the global limit holds them back.
    const { outcomes } = await run(paths.map((p, i) => ({ url: `http://h${i}.test:${s.port}${p}` })), { concurrency: 3, perHost: 10 });
    expect(outcomes.map((o) => o.kind)).toEqual(Array(12).fill("ok"));
    expect(s.seen).toHaveLength(12);
    expect(hold.most.all).toBe(3);
  });

  it("no more than `perHost` at once to one host (its ports counted together), while other hosts go on", async () => {
    // Eight URLs per host (a.test's on two ports), so that the hosts keep pace and every batch is 2 + 2 + 2.
    const hold = batches(6, 24);
    const paths = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const routes = Object.fromEntries(paths.map((p) => [p, hold.handler]));
    const a = await server(routes);
    const b = await server(routes);
    const targets = paths.flatMap((p, i) => [`http://a.test:${i % 2 === 0 ? a.port : b.port}${p}`, `http://b.test:${a.port}${p}`, `http://c.test:${b.port}${p}`]);
    const { outcomes } = await run(targets.map((url) => ({ url })), { concurrency: 10, perHost: 2 });
    expect(outcomes.map((o) => o.kind)).toEqual(Array(24).fill("ok"));
    expect(a.seen.length + b.seen.length).toBe(24);
    expect(Object.fromEntries(hold.most.byHost)).toEqual({ "a.test": 2, "b.test": 2, "c.test": 2 });
    expect(hold.most.all).toBe(6);
  });
});

describe("fragments in external pages", () => {
  const html = '<!doctype html><h1 id="here">Here</h1><a name="old"></a><h2 id="café">Café</h2><template><p id="inert"></template>';

  it("finds IDs and a names as a browser scrolling to them does; a missing one makes the URL an error", async () => {
    const s = await server({ "/page.html": page(html) });
    const url = `${s.origin}/page.html`;
    const fragments = ["here", "old", "caf%C3%A9", "missing", "inert", "", "TOP", ":~:text=Here"];
    const { by } = await run([{ url, fragments }], { fragments: true });
    const o = by(url);
    expect(o.kind).toBe("ok");
    expect(o.severity).toBe("error");
    expect(Object.fromEntries(o.fragments.map((f) => [f.fragment, f.kind]))).toEqual({
      here: "found", old: "found", "caf%C3%A9": "found", missing: "missing-fragment", inert: "missing-fragment", "": "found", TOP: "found", ":~:text=Here": "found",
    });
    // The page is read with a GET; no HEAD before it.
    expect([s.count("/page.html", "HEAD"), s.count("/page.html", "GET")]).toEqual([0, 1]);
  });

  it("without fragments turned on, nothing is read and no fragment is checked; a URL's own fragment counts when on", async () => {
    const s = await server({ "/page.html": page(html) });
    const a = await run([{ url: `${s.origin}/page.html#missing` }]);
    expect(a.by(`${s.origin}/page.html#missing`)).toMatchObject({ kind: "ok", severity: "ok", fragments: [] });
    expect(s.count("/page.html", "GET")).toBe(0);
    const b = await run([{ url: `${s.origin}/page.html#missing` }], { fragments: true });
    expect(b.by(`${s.origin}/page.html#missing`).fragments).toEqual([{ fragment: "missing", kind: "missing-fragment", detail: "no element with this ID or name" }]);
  });

  it("reads the page in the charset its Content-Type names, and a gzip-encoded page", async () => {
    const latin1 = Uint8Array.from([...'<p id="caf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x22, 0x3e]));
    const s = await server({
      "/latin1.html": page(latin1, { "content-type": "text/html; charset=windows-1252" }),
      "/gz.html": page(gzipSync(html), { "content-encoding": "gzip" }),
    });
    const { by } = await run([{ url: `${s.origin}/latin1.html#caf%C3%A9` }, { url: `${s.origin}/gz.html#here` }], { fragments: true });
    expect(by(`${s.origin}/latin1.html#caf%C3%A9`).fragments[0]!.kind).toBe("found");
    expect(by(`${s.origin}/gz.html#here`).fragments[0]!.kind).toBe("found");
  });

  it("a page that is not HTML: its fragments are not checked, and the URL is fine", async () => {
    const s = await server({ "/doc.pdf": (_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.7") });
    const { by } = await run([{ url: `${s.origin}/doc.pdf#page=2` }], { fragments: true });
    expect(by(`${s.origin}/doc.pdf#page=2`)).toMatchObject({
      kind: "ok", severity: "ok", fragments: [{ fragment: "page=2", kind: "not-html", detail: "not an HTML page (Content-Type: application/pdf)" }],
    });
  });

  it("a huge page is read only up to the bound: a fragment in its first bytes is found, one beyond could not be checked", async () => {
    let closedEarly = false;
    const s = await server({
      "/huge.html": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.write('<p id="early">');
        const filler = Buffer.alloc(64 * 1024, "<p>filler</p>\n");
        // Endless: only the client's hanging up ends it.
        const more = (): void => {
          while (res.write(filler));
        };
        res.on("drain", more);
        res.once("close", () => (closedEarly = !res.writableFinished));
        more();
      },
    });
    const url = `${s.origin}/huge.html`;
    const { by } = await run([{ url, fragments: ["early", "late"] }], { fragments: true, maxBodyBytes: 256 * 1024 });
    const o = by(url);
    expect(o.fragments.map((f) => f.kind)).toEqual(["found", "fragment-unchecked"]);
    expect(o.fragments[1]!.detail).toBe("not in the first 262144 bytes, and the page is longer");
    expect(o.severity).toBe("unchecked");
    await expect.poll(() => closedEarly).toBe(true);
  });

  it("follows redirects to the page; a Location with a fragment replaces the link's", async () => {
    const s = await server({ "/page.html": page(html), "/to-page": redirect(301, "/page.html"), "/to-anchor": redirect(302, "/page.html#here") });
    const { by } = await run([{ url: `${s.origin}/to-page#here` }, { url: `${s.origin}/to-anchor#nothing` }], { fragments: true });
    expect(by(`${s.origin}/to-page#here`)).toMatchObject({ kind: "permanent-redirect", fragments: [{ fragment: "here", kind: "found" }] });
    expect(by(`${s.origin}/to-anchor#nothing`)).toMatchObject({ kind: "ok", fragments: [{ fragment: "nothing", kind: "found" }] });
    expect(s.count("/page.html", "GET")).toBe(1);
  });

  it("a URL asked without its page and for its page is asked at most once per method", async () => {
    const s = await server({ "/page.html": page(html) });
    const url = `${s.origin}/page.html`;
    const { outcomes } = await run([{ url }, { url, fragments: ["here"] }], { fragments: true });
    expect(outcomes.map((o) => o.severity)).toEqual(["ok", "ok"]);
    expect(s.count("/page.html", "GET")).toBe(1);
    expect(s.count("/page.html", "HEAD")).toBeLessThanOrEqual(1);
  });
});

describe("the cache file", () => {
  function tempDir(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "docbase-external-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it("a second run asks nothing younger than the maximum age, and asks again what is older or could not be checked", async () => {
    const s = await server({ "/a": ok, "/b": ok, "/gone": (_req, res) => res.writeHead(404).end(), "/never": () => undefined, "/page.html": page('<p id="x">') });
    const file = path.join(tempDir(), "cache.json");
    const hour = 3_600_000;
    const checkAt = async (minutes: number, targets: ExternalTarget[]): Promise<ExternalOutcome[]> => {
      const clock = fakeClock(T0 + minutes * 60_000);
      const checker = createExternalChecker({ cache: { file, maxAge: hour }, now: clock.now, sleep: clock.sleep, timeout: 300, fragments: true });
      cleanups.push(() => checker.close());
      const out: ExternalOutcome[] = [];
      for await (const o of checker.check(targets)) out.push(o);
      await checker.close();
      return out;
    };
    const u = (p: string): string => s.origin + p;
    const asked = (from: number): string[] => s.seen.slice(from).map((r) => `${r.method} ${r.path}`);
    const first = [{ url: u("/a") }, { url: u("/gone") }, { url: u("/never") }, { url: u("/page.html"), fragments: ["x", "y"] }];
    await checkAt(0, first);
    // A 404 to HEAD gets a GET too; the page is read with a GET alone.
    expect(asked(0).sort()).toEqual(["GET /gone", "GET /page.html", "HEAD /a", "HEAD /gone", "HEAD /never"]);
    // At 0:40 all that is known is fresh: only /never is asked (a timeout is not kept), and the page for a fragment not asked before.
    let mark = s.seen.length;
    const second = await checkAt(40, [...first, { url: u("/page.html"), fragments: ["y", "x"] }, { url: u("/page.html"), fragments: ["z"] }]);
    expect(second.filter((o) => o.fromCache).map((o) => o.url)).toEqual([u("/a"), u("/gone"), u("/page.html"), u("/page.html")]);
    expect(second.find((o) => o.url === u("/gone"))).toMatchObject({ kind: "bad-status", status: 404, fromCache: true, checkedAt: T0 });
    expect(second.find((o) => o.url === u("/page.html") && o.fromCache)!.fragments.map((f) => [f.fragment, f.kind])).toEqual([["x", "found"], ["y", "missing-fragment"]]);
    expect(asked(mark).sort()).toEqual(["GET /page.html", "HEAD /never"]);
    // At 0:50, /b.
    await checkAt(50, [{ url: u("/b") }]);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved.format).toBe("docbase-external-links-cache");
    expect(Object.keys(saved.entries).sort()).toEqual([u("/a"), u("/b"), u("/gone"), u("/page.html")]);
    expect(saved.entries[u("/a")].checkedAt).toBe("2026-01-01T00:00:00.000Z");
    // At 1:10, /a (asked at 0:00) is too old and asked again; /b (0:50) is not.
    mark = s.seen.length;
    const third = await checkAt(70, [{ url: u("/a") }, { url: u("/b") }]);
    expect(third.map((o): [string, boolean] => [o.url, o.fromCache]).sort()).toEqual([[u("/a"), false], [u("/b"), true]]);
    expect(asked(mark)).toEqual(["HEAD /a"]);
  });

  it("a file that is not a docbase cache is a warning, is not used and is left as it is", async () => {
    const dir = tempDir();
    const s = await server({ "/a": ok });
    for (const [name, content] of [["notes.json", '{"todo": ["buy milk"]}'], ["garbage.json", "\u0000\u0001 not json"]] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const warnings: string[] = [];
      const { checker } = await run([{ url: `${s.origin}/a` }], { cache: { file }, onWarning: (w) => warnings.push(w.code) });
      expect(warnings).toEqual(["cache-foreign"]);
      expect(checker.warnings[0]!.message).toMatch(new RegExp(`^the cache .*${name} (is not JSON|has no "format": "docbase-external-links-cache"): not used, and left as it is`));
      expect(readFileSync(file, "utf8")).toBe(content);
    }
  });

  it("a cache of another version, or with bad entries, is a warning; what can be used is used, and the file is rewritten", async () => {
    const dir = tempDir();
    const s = await server({ "/a": ok, "/b": ok });
    const file = path.join(dir, "cache.json");
    writeFileSync(file, JSON.stringify({ format: "docbase-external-links-cache", version: 99, entries: {} }));
    const first = await run([{ url: `${s.origin}/a` }], { cache: { file } });
    expect(first.checker.warnings.map((w) => w.code)).toEqual(["cache-outdated"]);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved.version).toBe(1);
    saved.entries[`${s.origin}/b`] = { checkedAt: "yesterday", kind: "ok" };
    writeFileSync(file, JSON.stringify(saved));
    const second = await run([{ url: `${s.origin}/a` }, { url: `${s.origin}/b` }], { cache: { file } });
    expect(second.checker.warnings.map((w) => w.message)).toEqual([`the cache ${file} has 1 entry that could not be read: those URLs are asked`]);
    expect(second.by(`${s.origin}/a`).fromCache).toBe(true);
    expect(second.by(`${s.origin}/b`).fromCache).toBe(false);
    expect([s.count("/a"), s.count("/b")]).toEqual([1, 1]);
  });
});

describe("the summary", () => {
  it("keeps what is broken apart from what could not be checked", async () => {
    const port = await closedPort();
    const s = await server({ "/ok": ok, "/gone": (_req, res) => res.writeHead(404).end(), "/moved": redirect(301, "/ok"), "/page.html": page('<p id="x">') });
    const { outcomes, checker } = await run(
      [`${s.origin}/ok`, `${s.origin}/gone`, `${s.origin}/moved`, `${s.origin}/page.html#y`, `http://127.0.0.1:${port}/`, "http://nx.test/", "mailto:a@example.com"].map((url) => ({ url })),
      { fragments: true },
    );
    const summary = summarizeExternal(outcomes, checker.stats.requests);
    expect(summary).toMatchObject({ urls: 7, ok: 1, warnings: 1, broken: 2, unchecked: 2, skipped: 1, fromCache: 0 });
    expect(formatExternalSummary(summary)).toBe(
      [
        `external links: 7 URLs: 1 ok, 1 warning, 2 broken, 2 could not be checked, 1 skipped (0 from the cache, ${checker.stats.requests} requests)`,
        "  broken: 1 bad-status, 1 missing-fragment",
        "  could not be checked: 1 dns-failure, 1 connection-refused",
        "  warnings: 1 permanent-redirect",
        "  skipped: 1 unsupported-scheme",
      ].join("\n"),
    );
  });
});

describe("misuse throws a named error", () => {
  it("a bad option, a target that is not an absolute URL, a closed checker", async () => {
    const thrown = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        expect(isExternalCheckerError(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error("did not throw");
    };
    expect(thrown(() => createExternalChecker({ perHost: 0 }))).toBe("perHost: not a positive integer: 0");
    expect(thrown(() => createExternalChecker({ accept: [[299, 200]] }))).toBe("accept[0]: the range ends before it starts: [299,200]");
    expect(thrown(() => createExternalChecker({ method: "post" as never }))).toBe('method: not "head-then-get" or "get": "post"');
    expect(thrown(() => parseStatusRanges("200-299,abc"))).toBe('accept: not a status code or range: "abc"');
    expect(parseStatusRanges("200..=204, 429, 300..400")).toEqual([[200, 204], [429, 429], [300, 399]]);
    const checker = createExternalChecker();
    await expect(checker.check([{ url: "/relative" }]).next()).rejects.toThrow('check: not an absolute URL: "/relative"');
    await checker.close();
    await expect(checker.check([{ url: "https://example.com/" }]).next()).rejects.toThrow("check: the checker is closed");
  });
});

describe("HTTP-date, Retry-After and Content-Type, by their grammars", () => {
  it("reads the three HTTP-date formats, the two-digit year as RFC 9110 says, and nothing else", () => {
    const when = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(when);
    expect(parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT", T0)).toBe(when);
    expect(parseHTTPDate("Sun Nov  6 08:49:37 1994")).toBe(when);
    // "more than 50 years in the future": the most recent past year with those digits.
    expect(parseHTTPDate("Monday, 01-Jan-75 00:00:00 GMT", T0)).toBe(Date.UTC(2075, 0, 1));
    expect(parseHTTPDate("Friday, 01-Jan-77 00:00:00 GMT", T0)).toBe(Date.UTC(1977, 0, 1));
    expect(parseHTTPDate("Wed, 31 Dec 2025 23:59:60 GMT")).toBe(Date.UTC(2026, 0, 1));
    for (const bad of ["Sun, 6 Nov 1994 08:49:37 GMT", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "1994-11-06T08:49:37Z", ""]) {
      expect(parseHTTPDate(bad)).toBeNull();
    }
  });

  it("reads Retry-After as delay-seconds or an HTTP-date", () => {
    expect(parseRetryAfter("0", T0)).toBe(0);
    expect(parseRetryAfter("120", T0)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:00 GMT", T0)).toBe(60_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", T0)).toBe(0);
    for (const bad of ["-5", "1.5", "soon", " 5", undefined]) expect(parseRetryAfter(bad, T0)).toBeNull();
  });

  it("parses a Content-Type as the MIME Sniffing Standard does", () => {
    expect(parseMIMEType(" Text/HTML ;Charset=\"Shift_JIS\"; charset=utf-8")).toEqual({ essence: "text/html", parameters: new Map([["charset", "Shift_JIS"]]) });
    expect(parseMIMEType('text/html;charset="a\\"b";x=1')?.parameters).toEqual(new Map([["charset", 'a"b'], ["x", "1"]]));
    expect(parseMIMEType("text/html;charset=;x")?.parameters.size).toBe(0);
    for (const bad of ["html", "/html", "text/", "te xt/html", "text/ht(ml"]) expect(parseMIMEType(bad)).toBeNull();
    expect(isHTMLPage(parseMIMEType("application/xhtml+xml"))).toBe(true);
    expect(isHTMLPage(parseMIMEType("text/plain"))).toBe(false);
  });
});
