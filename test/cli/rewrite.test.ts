import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, exampleSite, jsonLines, main, readTree, temporaryDirectory, writeTree } from "./helpers.ts";
import { isTemporaryName, TEMP_FILE_PATTERN, temporaryName } from "../../src/cli/atomic-write.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

/** docbase's temporary files (`.NAME.docbase-PID-THREAD-SEQ-MARK.tmp`); group 2 is the process. */
const TEMP = TEMP_FILE_PATTERN;

/** Whether process `pid` has ended (Linux: no /proc entry, or a zombie that no parent has reaped). */
function hasEnded(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return true;
  }
}

/** The running processes (Linux: /proc; a zombie's environment reads empty) whose environment has DOCBASE_KILL_TEST=tag. */
function processesTagged(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(`DOCBASE_KILL_TEST=${tag}`)) found.push(Number(entry));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

function copyOfExample(): string {
  const dir = path.join(temporaryDirectory(), "site");
  cpSync(exampleSite, dir, { recursive: true });
  return dir;
}

describe("docbase rewrite", () => {
  it("--absolute rewrites in place, only the links, byte for byte elsewhere (legacy encodings too)", async () => {
    const dir = copyOfExample();
    const before = readTree(dir);
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^docbase rewrite: rewrote 59 links in 14 of 15 files \(13 HTML files, 2 style sheets\), /);
    const after = readTree(dir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    // A style sheet's links are rewritten, every other byte kept; other files are untouched.
    expect(after.get("css/site.css")!.toString()).toBe(before.get("css/site.css")!.toString().replace("url(../img/bg.png)", "url(https://example.com/img/bg.png)"));
    expect(after.get("img/logo.png")).toEqual(before.get("img/logo.png"));
    // The windows-1252 page keeps its bytes: only the URLs changed, and they are ASCII.
    const latin1 = after.get("legacy/latin1.html")!.toString("latin1");
    expect(latin1).toContain('<a href="https://example.com/legacy/search.html?q=caf%E9">');
    expect(latin1.replaceAll(/https:\/\/example\.com\/legacy\/search\.html\?q=caf%E9|https:\/\/example\.com\/legacy\/menu\/cr%C3%A8me\.html|https:\/\/example\.com\/index\.html/g, "")).toBe(
      before.get("legacy/latin1.html")!.toString("latin1").replace("search.html?q=caf\xe9", "").replace("menu/cr\xe8me.html", "").replace("../index.html", ""),
    );
    expect(after.get("frames.html")!.toString()).toContain('srcdoc="<p><a href=&quot;https://example.com/docs/guide.html&quot;>Guide</a>');
    // Running it again changes nothing.
    const again = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(again.stderr).toMatch(/rewrote 0 links in 0 of 15 files \(13 HTML files, 2 style sheets\)/);
    expect(readTree(dir)).toEqual(after);
  });

  it("--relative gives portable, document-relative references, and undoes --absolute", async () => {
    const dir = copyOfExample();
    await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--relative"]);
    expect(run.code).toBe(0);
    const about = readFileSync(path.join(dir, "about/index.html"), "utf8");
    expect(about).toContain('<a href="../">Home</a> · <a href="team.html">The team</a> · <a href="../docs/guide.html#install">Install</a>');
    // Every link still resolves to the same URL as in the original site.
    const original = jsonLines((await docbase(["links", exampleSite, "--url", "https://example.com/", "--json"])).stdout).map((l) => l["url"]);
    const now = jsonLines((await docbase(["links", dir, "--url", "https://example.com/", "--json"])).stdout).map((l) => l["url"]);
    expect(now).toEqual(original);
  });

  it("--from/--to moves a site to a new root", async () => {
    const dir = copyOfExample();
    const run = await docbase(["rewrite", dir, "--from", "https://example.com/", "--to", "https://new.example/v2"]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(dir, "docs/guide.html"), "utf8")).toContain('<base href="v2/">');
    expect(readFileSync(path.join(dir, "about/team.html"), "utf8")).toContain('<a href="../">Home</a>');
    // Seen from the new root, every link points where it did, moved.
    const original = jsonLines((await docbase(["links", exampleSite, "--url", "https://example.com/", "--json"])).stdout);
    const moved = jsonLines((await docbase(["links", dir, "--url", "https://new.example/v2/", "--json"])).stdout);
    expect(moved.map((l) => l["url"])).toEqual(original.map((l) => (typeof l["url"] === "string" ? l["url"].replace(/^https:\/\/example\.com\//, "https://new.example/v2/") : l["url"])));
  });

  it("--out writes the rewritten site elsewhere, copies other files, and leaves the input alone", async () => {
    const dir = copyOfExample();
    const before = readTree(dir);
    const out = path.join(path.dirname(dir), "out");
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute", "--out", out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/rewrote 59 links in 14 of 15 files \(13 HTML files, 2 style sheets\) into .*out \(and copied 6 other files\)/);
    expect(readTree(dir)).toEqual(before);
    const written = readTree(out);
    expect([...written.keys()]).toEqual([...before.keys()]);
    expect(written.get("img/logo.png")).toEqual(before.get("img/logo.png"));
    expect(written.get("files/annual report.txt")).toEqual(before.get("files/annual report.txt"));
    // refresh.html has only... a refresh and a link: both rewritten.
    expect(written.get("refresh.html")!.toString()).toContain('content="0; url=https://example.com/about/"');
  });

  it("--out inside the site: the output is not read as part of the site", async () => {
    const dir = copyOfExample();
    const out = path.join(dir, "_build");
    await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute", "--out", out]);
    const again = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute", "--out", out]);
    expect(again.code).toBe(0);
    expect(existsSync(path.join(out, "_build"))).toBe(false);
    expect(again.stderr).toMatch(/in 14 of 15 files \(13 HTML files, 2 style sheets\)/);
  });

  it("keeps a file's permissions", async () => {
    const dir = writeTree(temporaryDirectory(), { "a.html": '<a href="b.html">', "b.html": "" });
    chmodSync(path.join(dir, "a.html"), 0o640);
    await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(readFileSync(path.join(dir, "a.html"), "utf8")).toBe('<a href="https://example.com/b.html">');
    expect(statSync(path.join(dir, "a.html")).mode & 0o777).toBe(0o640);
  });

  it("does not write through a symbolic link out of the site, unless --follow-symlinks", async () => {
    const dir = writeTree(temporaryDirectory(), { "real/a.html": '<a href="b.html">', "site/b.html": "" });
    symlinkSync(path.join(dir, "real/a.html"), path.join(dir, "site/a.html"));
    const run = await docbase(["rewrite", path.join(dir, "site"), "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${path.join(dir, "site/a.html")}: warning: a symbolic link to outside the site root`);
    expect(readFileSync(path.join(dir, "real/a.html"), "utf8")).toBe('<a href="b.html">');
    const followed = await docbase(["rewrite", path.join(dir, "site"), "--url", "https://example.com/", "--absolute", "--follow-symlinks"]);
    expect(followed.code).toBe(0);
    expect(lstatSync(path.join(dir, "site/a.html")).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(dir, "real/a.html"), "utf8")).toBe('<a href="https://example.com/b.html">');
    expect(readdirSync(path.join(dir, "real"))).toEqual(["a.html"]);
  });

  it("--dry-run prints the changes per file and writes nothing", async () => {
    const dir = copyOfExample();
    const before = readTree(dir);
    const out = path.join(path.dirname(dir), "out");
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute", "--dry-run", "--out", out]);
    expect(run.code).toBe(0);
    expect(readTree(dir)).toEqual(before);
    expect(existsSync(out)).toBe(false);
    expect(run.stdout).toContain(
      [
        `${path.join(dir, "docs/guide.html")}: 4 links`,
        "  6:32  <link href>  guide.css → https://example.com/docs/v2/guide.css",
        "  7:15  <base href>  /docs/v2/ → https://example.com/docs/v2/",
        "  13:19  <a href>  install.html → https://example.com/docs/v2/install.html",
        "  13:64  <a href>  ../../ → https://example.com/",
        "",
      ].join("\n"),
    );
    expect(run.stderr).toMatch(/would rewrite 59 links in 14 of 15 files \(13 HTML files, 2 style sheets\) into .*out \(and would copy 6 other files\)/);
  });

  it("--dry-run --json gives one object per change", async () => {
    const dir = copyOfExample();
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--relative", "--dry-run", "--json"]);
    const changes = jsonLines(run.stdout);
    expect(changes[0]).toEqual({
      file: path.join(dir, "about/index.html"),
      element: "form",
      attribute: "action",
      value: "/search",
      url: "https://example.com/search",
      line: 14,
      column: 17,
      rewritten: "../search",
    });
  });

  it("reports a file that cannot be read or decoded, leaves it as it was, and rewrites the rest", async () => {
    const dir = writeTree(temporaryDirectory(), {
      "ok.html": '<a href="a.html">',
      "kr.html": '<meta charset="iso-2022-kr"><a href="a.html">',
    });
    symlinkSync(path.join(dir, "nowhere.html"), path.join(dir, "dangling.html"));
    const kr = readFileSync(path.join(dir, "kr.html"));
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`docbase: ${path.join(dir, "dangling.html")}: cannot be read: a symbolic link to nothing (ENOENT)`);
    expect(run.stderr).toContain(`docbase: ${path.join(dir, "kr.html")}: cannot be decoded: its encoding is the replacement encoding`);
    expect(run.stderr).toMatch(/rewrote 1 link in 1 of 2 HTML files.*; 2 files could not be read, decoded or written/);
    expect(readFileSync(path.join(dir, "kr.html"))).toEqual(kr);
    expect(readFileSync(path.join(dir, "ok.html"), "utf8")).toBe('<a href="https://example.com/a.html">');
  });

  it("reports a file whose <meta> past the prescan declares the replacement encoding as one that cannot be decoded, as links does", async () => {
    // The prescan reads 1024 bytes; the parse finds this <meta> and changes the encoding to the replacement encoding.
    const late = `<!doctype html><a href="a.html">a</a>${"<p>x</p>".repeat(200)}<meta charset="iso-2022-kr"><a href="b.html">b</a>`;
    const dir = writeTree(temporaryDirectory(), { "late-kr.html": late, "ok.html": '<a href="a.html">' });
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`docbase: ${path.join(dir, "late-kr.html")}: cannot be decoded: its encoding is the replacement encoding`);
    expect(readFileSync(path.join(dir, "late-kr.html"), "utf8")).toBe(late);
    const links = await docbase(["links", path.join(dir, "late-kr.html"), "--url", "https://example.com/"]);
    expect(links.stderr).toContain("cannot be decoded: its encoding is the replacement encoding");
  });

  it("reports a file whose new links cannot be written in its encoding (ISO-2022-JP is stateful)", async () => {
    // The rewrite itself is fine here; an unwritable one is the links layer's LinksError, reported the same way.
    const dir = writeTree(temporaryDirectory(), { "jp.html": Buffer.from('<meta charset="iso-2022-jp"><a href="a.html">x</a>', "latin1") });
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(dir, "jp.html"), "latin1")).toBe('<meta charset="iso-2022-jp"><a href="https://example.com/a.html">x</a>');
  });

  it("removes the temporary files of a run that is gone, and leaves those of a running one", async () => {
    const dir = writeTree(temporaryDirectory(), { "a.html": '<a href="b.html">', "sub/b.html": "" });
    // A pid that is not running (far above pid_max's default) and our own, which is.
    const gone = temporaryName("b.html", 999999999, 0, 1);
    const running = temporaryName("a.html", process.pid, 0, 1);
    writeFileSync(path.join(dir, "sub", gone), "half a fi");
    writeFileSync(path.join(dir, running), "someone else's");
    const run = await docbase(["rewrite", dir, "--url", "https://example.com/", "--absolute"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/removed 1 temporary file left by an interrupted run/);
    expect(existsSync(path.join(dir, "sub", gone))).toBe(false);
    expect(existsSync(path.join(dir, running))).toBe(true);
    // links and check never read temporary files.
    const links = await docbase(["links", dir, "--url", "https://example.com/", "--json"]);
    expect(jsonLines(links.stdout).map((l) => l["file"])).toEqual([path.join(dir, "a.html")]);
  });
});

describe("docbase rewrite, interrupted", () => {
  /** A site big enough that a rewrite takes a while: pages of many relative links. */
  function bigSite(dir: string, pages: number): void {
    const tree: Record<string, string> = {};
    for (let i = 0; i < pages; i++) {
      const links: string[] = [];
      for (let k = 0; k < 60; k++) links.push(`<li><a href="../s${(i + k) % 10}/p${(i * 7 + k) % pages}.html#k${k}">page ${k}</a> <img src="../img/i${k}.png" srcset="../img/i${k}.png 1x, ../img/i${k}@2x.png 2x">`);
      tree[`s${i % 10}/p${i}.html`] = `<!doctype html><meta charset=utf-8><title>Page ${i}</title><link rel=stylesheet href="../site.css">\n<ul>\n${links.join("\n")}\n</ul>\n${"<p>Text. ".repeat(200)}\n`;
    }
    writeTree(dir, tree);
  }

  it("leaves every file exactly old or exactly new after a SIGKILL mid-run, and the next run finishes the job", async () => {
    const pages = 2500;
    const base = temporaryDirectory();
    const site = path.join(base, "site");
    bigSite(site, pages);
    const old = readTree(site);
    // The expected new versions: the same rewrite, run to completion into another directory.
    const expectedDir = path.join(base, "expected");
    expect((await docbase(["rewrite", site, "--url", "https://example.com/", "--absolute", "--out", expectedDir])).code).toBe(0);
    const expected = readTree(expectedDir);
    expect(readTree(site)).toEqual(old);

    // Start the rewrite in place; kill it once the first files are written. Its worker processes
    // carry a tag in their environment, so that the test can tell when they have ended too.
    const tag = `docbase-kill-test-${process.pid}-${Date.now()}`;
    const child = spawn(process.execPath, [main, "rewrite", site, "--url", "https://example.com/", "--absolute", "--jobs", "2"], {
      stdio: "ignore",
      env: { ...process.env, DOCBASE_KILL_TEST: tag },
    });
    const first = path.join(site, "s0/p0.html");
    const firstOld = old.get("s0/p0.html")!;
    const started = Date.now();
    while (readFileSync(first).equals(firstOld)) {
      if (Date.now() - started > 60_000) throw new Error("the rewrite did not start");
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.on("close", r));
    // A worker whose command was killed ends when it sees its channel close: after the file it is
    // reading, at most. Wait for them all (each may leave a temporary file of its own).
    for (const waitStart = Date.now(); ; ) {
      const alive = processesTagged(tag);
      if (alive.length === 0) break;
      if (Date.now() - waitStart > 30_000) throw new Error(`workers of the killed run still running: ${alive.join(", ")}`);
      await new Promise((r) => setTimeout(r, 20));
    }

    let newer = 0;
    let older = 0;
    const leftovers: string[] = [];
    for (const [rel, bytes] of readTree(site)) {
      if (TEMP.test(path.basename(rel))) {
        leftovers.push(rel);
        // It is the killed command's, or one of its workers': a process that has ended.
        expect(isTemporaryName(path.basename(rel)), rel).toBe(true);
        expect(hasEnded(Number(TEMP.exec(path.basename(rel))![2])), rel).toBe(true);
        continue;
      }
      if (bytes.equals(expected.get(rel)!)) newer++;
      else if (bytes.equals(old.get(rel)!)) older++;
      else throw new Error(`${rel} is neither the old nor the new version`);
    }
    expect(newer + older).toBe(pages);
    // Killed mid-run: some files are new, some old.
    expect(newer).toBeGreaterThan(0);
    expect(older).toBeGreaterThan(0);

    // The next run removes the leftovers and finishes.
    const again = await docbase(["rewrite", site, "--url", "https://example.com/", "--absolute"]);
    expect(again.code).toBe(0);
    if (leftovers.length > 0) expect(again.stderr, leftovers.join(", ")).toContain(`removed ${leftovers.length} temporary file`);
    const final = readTree(site);
    expect([...final.keys()].filter((k) => TEMP.test(path.basename(k)))).toEqual([]);
    expect(final).toEqual(expected);
    expect(readdirSync(site).length).toBe(10);
  }, 180_000);
});
