// The command stays inside the root it was given, reads only regular files, reports each problem per file
// and goes on, and prints nothing a terminal would obey: issue 16's reproductions, in real temporary
// directories (symbolic links in and out of the root, a FIFO, /dev/zero, an unreadable directory read as
// a user who is not root, hostile file names).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { docbase, ensureBuilt, findingsOf, jsonLines, main, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);

const url = "https://example.com/";

describe("symbolic links", () => {
  it("links and check do not follow a link out of the root; it is a warning", async () => {
    const dir = writeTree(temporaryDirectory(), { "outside/secret.html": '<a href="leak.html">', "site/index.html": '<a href="a.html">' });
    symlinkSync(path.join(dir, "outside/secret.html"), path.join(dir, "site/link.html"));
    symlinkSync(path.join(dir, "outside"), path.join(dir, "site/dirlink"));
    const run = await docbase(["links", path.join(dir, "site"), "--url", url, "--json"]);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l["value"])).toEqual(["a.html"]);
    expect(run.stderr).toContain(`${path.join(dir, "site/link.html")}: warning: a symbolic link to outside the site root`);
    expect(run.stderr).toContain(`${path.join(dir, "site/dirlink")}: warning: a symbolic link to outside the site root`);
    const followed = await docbase(["links", path.join(dir, "site"), "--url", url, "--json", "--follow-symlinks"]);
    expect(jsonLines(followed.stdout).map((l) => l["value"]).sort()).toEqual(["a.html", "leak.html", "leak.html"]);
  });

  it("a link inside the site is read once, as its target at its own URL, and counts as a file for check", async () => {
    const dir = writeTree(temporaryDirectory(), { "sub/index.html": '<a href="page.html">', "sub/page.html": "", "index.html": '<a href="alias.html">' });
    symlinkSync("sub/index.html", path.join(dir, "alias.html"));
    const run = await docbase(["links", dir, "--url", url, "--json"]);
    const links = jsonLines(run.stdout);
    expect(links.map((l) => [l["file"], l["url"]])).toEqual([
      [path.join(dir, "index.html"), `${url}alias.html`],
      [path.join(dir, "sub/index.html"), `${url}sub/page.html`],
    ]);
    const check = await docbase(["check", dir, "--url", url]);
    expect(check.code).toBe(0);
  });

  it("rewrite in place writes nothing out of the root, and --out copies inner links as links and never an outside target", async () => {
    const dir = writeTree(temporaryDirectory(), { "outside/a.html": '<a href="x.html">', "outside/secret.txt": "secret", "site/index.html": '<a href="b.html">', "site/b.html": "" });
    symlinkSync(path.join(dir, "outside/a.html"), path.join(dir, "site/link.html"));
    symlinkSync(path.join(dir, "outside"), path.join(dir, "site/etclink"));
    symlinkSync("b.html", path.join(dir, "site/alias.html"));
    const inPlace = await docbase(["rewrite", path.join(dir, "site"), "--url", url, "--absolute"]);
    expect(inPlace.code).toBe(0);
    expect(readFileSync(path.join(dir, "outside/a.html"), "utf8")).toBe('<a href="x.html">');
    expect(readFileSync(path.join(dir, "site/index.html"), "utf8")).toBe(`<a href="${url}b.html">`);
    const out = path.join(dir, "out");
    const copied = await docbase(["rewrite", path.join(dir, "site"), "--url", url, "--absolute", "--out", out]);
    expect(copied.code).toBe(0);
    expect(existsSync(path.join(out, "etclink"))).toBe(false);
    expect(existsSync(path.join(out, "link.html"))).toBe(false);
    expect(lstatSync(path.join(out, "alias.html")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(out, "alias.html"))).toBe("b.html");
  });
});

describe("special and huge files", () => {
  it("a FIFO and a link to /dev/zero are reported, not read (no hang, no memory blow-up)", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": '<a href="a.html">' });
    expect(spawnSync("mkfifo", [path.join(dir, "pipe.html")]).status).toBe(0);
    symlinkSync("/dev/zero", path.join(dir, "zero.html"));
    for (const command of ["links", "check"]) {
      const run = await docbase([command, dir, "--url", url, "--follow-symlinks"]);
      expect(run.stderr).toContain(`${path.join(dir, "pipe.html")}: warning: not a regular file`);
      expect(run.stderr).toContain(`${path.join(dir, "zero.html")}: warning: not a regular file`);
    }
    const one = await docbase(["links", path.join(dir, "pipe.html"), "--url", url]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("cannot be read: not a regular file (a FIFO)");
    const zero = await docbase(["base", path.join(dir, "zero.html"), "--url", url]);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain("not a regular file (a character device)");
  }, 60_000);

  it("a file over --max-file-size is reported and skipped; the others are read", async () => {
    const dir = writeTree(temporaryDirectory(), { "big.html": `<a href="x.html">${"x".repeat(4096)}`, "small.html": '<a href="y.html">' });
    const run = await docbase(["links", dir, "--url", url, "--json", "--max-file-size", "1K"]);
    expect(run.code).toBe(1);
    expect(jsonLines(run.stdout).map((l) => l["value"])).toEqual(["y.html"]);
    expect(run.stderr).toContain(`${path.join(dir, "big.html")}: cannot be read: it is larger (4.0 KiB) than the largest file read (1 KiB; --max-file-size raises it)`);
    const bad = await docbase(["links", dir, "--url", url, "--max-file-size", "lots"]);
    expect(bad.code).toBe(2);
  });

  it("an unreadable directory is reported like an unreadable file, and the run goes on (run as nobody)", async () => {
    const dir = writeTree(temporaryDirectory(), { "ok.html": '<a href="a.html">', "locked/inner.html": '<a href="b.html">' });
    chmodSync(path.dirname(dir), 0o755);
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, "ok.html"), 0o644);
    chmodSync(path.join(dir, "locked"), 0o000);
    // Root reads any directory: the command runs as the user nobody, for whom "locked" is unreadable.
    const canRun = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", `require("node:fs").accessSync(${JSON.stringify(main)})`]);
    expect(canRun.status, `the user nobody must be able to read ${main} (a repository in a directory only root may enter cannot run this test)`).toBe(0);
    const run = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, main, "links", dir, "--url", url, "--json"], { encoding: "utf8" });
    chmodSync(path.join(dir, "locked"), 0o755);
    expect(run.status, run.stderr).toBe(1);
    expect(jsonLines(run.stdout).map((l) => l["value"])).toEqual(["a.html"]);
    expect(run.stderr).toContain(`${path.join(dir, "locked")}: cannot be read: cannot read this directory: EACCES`);
    expect(run.stderr).not.toContain("    at ");
  });
});

describe("check stays inside the root and bounded", () => {
  it("a %2F in a link is part of one file name: no lookup climbs out of the root", async () => {
    const dir = writeTree(temporaryDirectory(), { "site/index.html": '<a href="..%2F..%2Foutside.html">x</a><a href="a%2Fb.html">y</a>', "outside.html": "", "site/a/b.html": "" });
    const run = await docbase(["check", path.join(dir, "site/index.html"), "--url", `${url}index.html`, "--json"]);
    const missing = jsonLines(run.stdout).filter((f) => f["type"] === "missing-file");
    // Both are reported missing: "..%2F..%2Foutside.html" and "a%2Fb.html" name no file of the site.
    expect(missing.map((f) => f["value"])).toEqual(["..%2F..%2Foutside.html", "a%2Fb.html"]);
  });

  it("the output for a 40 KB invalid URL is bounded: the first 100 errors, each showing the offending part, then a count", async () => {
    const href = "% ".repeat(20_000);
    const dir = writeTree(temporaryDirectory(), { "index.html": `<a href="${href}">x</a>` });
    const run = await docbase(["check", dir, "--url", url]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n").filter(Boolean);
    // Two targets (the URL, with the first 100 errors and one line for the 39,899 others; the missing file), each a heading and its lines.
    expect(lines).toHaveLength(104);
    expect(lines.filter((l) => !l.startsWith("  "))).toHaveLength(2);
    expect(lines.some((l) => l.includes("more-validation-errors") && l.includes("39,899 more validation errors"))).toBe(true);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(400);
    expect(run.stderr).not.toContain("internal error");
    const json = await docbase(["check", dir, "--url", url, "--json"]);
    const findings = findingsOf(json.stdout);
    // The whole value once for its validation errors, once for its missing-file finding: not once per error.
    expect(findings.filter((f) => "value" in f)).toHaveLength(2);
    expect(findings).toHaveLength(102);
    // Linear: the value and its URL (each % and space percent-encoded) twice, and short findings.
    expect(json.stdout.length).toBeLessThan(findings.length * 400 + href.length * 8);
  }, 60_000);
});

describe("text output", () => {
  it("escapes control characters of file names and documents; JSON keeps them exact", async () => {
    const dir = temporaryDirectory();
    const name = "evil\u001b[2J\u0007.html";
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), '<a href="a\u001b[31m b.html">x</a><a href="%">y</a>');
    const run = await docbase(["links", dir, "--url", url]);
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(run.stdout).toContain("evil\\x1b[2J\\x07.html");
    const check = await docbase(["check", dir, "--url", url]);
    expect(`${check.stdout}${check.stderr}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const json = await docbase(["links", dir, "--url", url, "--json"]);
    expect(jsonLines(json.stdout)[0]!["file"]).toBe(path.join(dir, name));
  });
});

describe("in-place rewrite keeps the file", () => {
  it("keeps its mode and its owner and group (as root, for a file owned by another user)", async () => {
    const dir = writeTree(temporaryDirectory(), { "a.html": '<a href="b.html">', "b.html": "" });
    const file = path.join(dir, "a.html");
    chmodSync(file, 0o640);
    spawnSync("chown", ["65534:65534", file]);
    const run = await docbase(["rewrite", dir, "--url", url, "--absolute"]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(`<a href="${url}b.html">`);
    const after = lstatSync(file);
    expect(after.mode & 0o7777).toBe(0o640);
    if (process.getuid?.() === 0) expect([after.uid, after.gid]).toEqual([65534, 65534]);
  });

  it("reports and skips a file with several hard links, and a read-only one, leaving them as they were", async () => {
    const dir = writeTree(temporaryDirectory(), { "linked.html": '<a href="b.html">', "ro.html": '<a href="b.html">', "ok.html": '<a href="b.html">', "b.html": "" });
    spawnSync("ln", [path.join(dir, "linked.html"), path.join(dir, "other-name.txt")]);
    chmodSync(path.join(dir, "ro.html"), 0o444);
    const run = await docbase(["rewrite", dir, "--url", url, "--absolute"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${path.join(dir, "linked.html")}: cannot be written: it has 2 hard links, and replacing it would split them: left as it was`);
    expect(run.stderr).toContain(`${path.join(dir, "ro.html")}: cannot be written: it is read-only (mode 0444): left as it was`);
    expect(readFileSync(path.join(dir, "linked.html"), "utf8")).toBe('<a href="b.html">');
    expect(lstatSync(path.join(dir, "linked.html")).ino).toBe(lstatSync(path.join(dir, "other-name.txt")).ino);
    expect(readFileSync(path.join(dir, "ro.html"), "utf8")).toBe('<a href="b.html">');
    expect(readFileSync(path.join(dir, "ok.html"), "utf8")).toBe(`<a href="${url}b.html">`);
  });
});

describe("a file that stops its worker", () => {
  it("loses only its own result: the others are reported, it is a failure, the run finishes", async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 60; i++) tree[`p${String(i).padStart(2, "0")}.html`] = `<a href="q${i}.html">x</a>`;
    // ~24 MB of links: more than a 64 MiB worker heap holds once parsed.
    tree["p30-huge.html"] = '<a href="h.html">x</a>'.repeat(1_100_000);
    const dir = writeTree(temporaryDirectory(), tree);
    const run = await docbase(["links", dir, "--url", url, "--json", "--jobs", "2", "--max-file-size", "100M"], { env: { DOCBASE_WORKER_HEAP_MB: "64" } });
    expect(run.code, `signal ${run.signal}: ${run.stderr}`).toBe(1);
    expect(run.stderr).toContain(`${path.join(dir, "p30-huge.html")}: failed: the worker reading it stopped`);
    const files = new Set(jsonLines(run.stdout).map((l) => l["file"]));
    expect(files.size, run.stderr).toBe(60);
    expect(files.has(path.join(dir, "p30-huge.html"))).toBe(false);
    expect(run.stderr).not.toContain("internal error");
  }, 120_000);
});

describe("file names that are not UTF-8", () => {
  it("are a warning (no URL can be given), not ENOENT, and rewrite --out copies them byte for byte", async () => {
    const dir = writeTree(temporaryDirectory(), { "ok.html": '<a href="a.html">' });
    const name = Buffer.from("caf\xe9.html", "latin1");
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), '<a href="b.html">');
    const run = await docbase(["links", dir, "--url", url, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: its name is not UTF-8 (636166e92e68746d6c)");
    expect(run.stderr).not.toContain("ENOENT");
    const out = path.join(dir, "..", `${path.basename(dir)}-out`);
    const rewrite = await docbase(["rewrite", dir, "--url", url, "--absolute", "--out", out]);
    expect(rewrite.code).toBe(0);
    expect(readFileSync(Buffer.concat([Buffer.from(`${out}/`), name]), "utf8")).toBe('<a href="b.html">');
  });
});
