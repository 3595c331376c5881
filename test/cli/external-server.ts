/**
 * A local HTTP server on 127.0.0.1 that misbehaves on purpose, for the
 * external-link checker's tests: each path has a handler; the server
 * records every request (method, path, host name), and closes every
 * connection when it closes.
 */

import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { LookupFunction, Socket } from "node:net";

/** A request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly host: string;
}

/** What a handler gets: the request, the response, and how many requests this path had so far (1 for the first). */
export type Handler = (req: IncomingMessage, res: ServerResponse, nth: number) => void;

export interface MisbehavingServer {
  readonly port: number;
  /** "http://127.0.0.1:PORT". */
  readonly origin: string;
  readonly seen: SeenRequest[];
  /** How many requests `path` had (with `method`: of that method only). */
  count(path: string, method?: string): number;
  close(): Promise<void>;
}

/**
 * Starts a server with `routes` (path without query → handler); a path
 * without a route answers 404.
 */
export async function startServer(routes: Record<string, Handler>): Promise<MisbehavingServer> {
  const seen: SeenRequest[] = [];
  const perPath = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    seen.push({ method: req.method ?? "", path, host });
    const nth = (perPath.get(path) ?? 0) + 1;
    perPath.set(path, nth);
    const handler = routes[path];
    if (handler === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    handler(req, res, nth);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    count: (path, method) => seen.filter((r) => r.path === path && (method === undefined || r.method === method)).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (a server's, closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Name resolution for the tests: names ending in ".test" are 127.0.0.1,
 * "nx.test" does not exist, "hang.test" never answers, and "flaky.test"
 * fails with EAI_AGAIN the first time it is looked up.
 */
export function testLookup(): LookupFunction {
  let flaky = 0;
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const fail = (code: string): void => callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname }));
    if (hostname === "hang.test") return;
    if (hostname === "nx.test") return fail("ENOTFOUND");
    if (hostname === "flaky.test" && flaky++ === 0) return fail("EAI_AGAIN");
    if (!hostname.endsWith(".test") && hostname !== "127.0.0.1") return fail("ENOTFOUND");
    if (options.all === true) callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  }) as LookupFunction;
}

/** A clock that only moves when the checker sleeps: every wait is recorded, none is waited. */
export function fakeClock(start: number): { now: () => number; sleep: (ms: number) => Promise<void>; waits: number[]; advance: (ms: number) => void } {
  let time = start;
  const waits: number[] = [];
  return {
    now: () => time,
    sleep: async (ms) => {
      waits.push(ms);
      time += ms;
    },
    waits,
    advance: (ms) => {
      time += ms;
    },
  };
}
