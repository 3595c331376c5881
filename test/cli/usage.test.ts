import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, temporaryDirectory, writeTree } from "./helpers.ts";
import path from "node:path";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

/** A usage error: exit code 2, nothing on standard output, `message` on standard error. */
async function usageError(args: string[], message: string | RegExp): Promise<void> {
  const run = await docbase(args);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  if (typeof message === "string") expect(run.stderr).toContain(message);
  else expect(run.stderr).toMatch(message);
}

describe("docbase --help", () => {
  it("shows the commands and examples, with exit code 0", async () => {
    const run = await docbase(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: docbase \[options\] \[command\]/);
    for (const command of ["links", "check", "rewrite", "base"]) expect(run.stdout).toContain(`  ${command} `);
    expect(run.stdout).toContain("$ docbase links public --url https://example.com/");
  });

  it("its examples name paths a user of the package has, not the repository's examples/", async () => {
    for (const args of [["--help"], ...["links", "check", "rewrite", "base"].map((command) => [command, "--help"])]) {
      expect((await docbase(args)).stdout, args.join(" ")).not.toContain("examples/");
    }
  });

  it.each([
    ["links", "$ docbase links public --url https://example.com/ --json | jq -r .url"],
    ["check", "$ docbase check public --url https://example.com/"],
    ["rewrite", "$ docbase rewrite site --from https://example.com/docs/ --to https://docs.example.com/"],
    ["base", "$ docbase base public/docs/guide.html --url https://example.com/docs/guide.html"],
  ])("%s --help has its flags and examples", async (command, example) => {
    const run = await docbase([command, "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: docbase ${command} [options] <`);
    expect(run.stdout).toContain("--url <url>");
    expect(run.stdout).toContain("Examples:");
    expect(run.stdout).toContain(example);
    const help = await docbase(["help", command]);
    expect(help.stdout).toBe(run.stdout);
  });

  it("--version prints the package's version", async () => {
    const run = await docbase(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("without arguments, shows the help on standard error with exit code 2", async () => {
    const run = await docbase([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^Usage: docbase/);
  });
});

describe("usage errors exit with 2 and say what is wrong", () => {
  it("an unknown command or flag", async () => {
    await usageError(["lnks", "x"], "docbase: unknown command 'lnks'");
    await usageError(["links", "examples/site", "--url", "https://example.com/", "--jsn"], "docbase: unknown option '--jsn'");
    await usageError(["links", "examples/site", "--url", "https://example.com/", "extra"], /too many arguments/);
  });

  it("a missing argument or --url", async () => {
    await usageError(["links", "--url", "https://example.com/"], "docbase: missing required argument 'input'");
    // links and check take a placeholder without --url (see check-config.test.ts); base needs the document's URL.
    await usageError(["base", "examples/site/index.html"], "required option '--url <url>' not specified");
    await usageError(["links", "examples/site", "--url"], "option '--url <url>' argument missing");
  });

  it("a --url that is not an absolute URL, or cannot be a site root", async () => {
    await usageError(["links", "examples/site", "--url", "/relative/"], 'docbase: --url: not an absolute URL: "/relative/"');
    await usageError(["links", "examples/site/index.html", "--url", "https://exa mple.com/"], 'docbase: --url: not an absolute URL: "https://exa mple.com/"');
    await usageError(["check", "examples/site", "--url", "mailto:someone@example.com"], 'docbase: --url: "mailto:someone@example.com" cannot be a site root');
    await usageError(["links", "examples/site", "--url", "https://example.com/?x"], "docbase: --url: a site root URL has no query or fragment");
    await usageError(["base", "examples/site/index.html", "--url", "nope"], 'docbase: --url: not an absolute URL: "nope"');
    await usageError(["rewrite", "examples/site", "--from", "https://example.com/", "--to", "new/"], 'docbase: --to: not an absolute URL: "new/"');
  });

  it("a file or directory that does not exist", async () => {
    await usageError(["links", "no/such/site", "--url", "https://example.com/"], "docbase: no such file or directory: no/such/site");
    await usageError(["check", "nope.html", "--url", "https://example.com/"], "docbase: no such file or directory: nope.html");
    await usageError(["base", "nope.html", "--url", "https://example.com/"], "docbase: no such file or directory: nope.html");
    await usageError(["rewrite", "nope", "--url", "https://example.com/", "--absolute"], "docbase: no such file or directory: nope");
  });

  it("flags that exclude each other, or need each other", async () => {
    await usageError(["links", "examples/site", "--url", "https://example.com/", "--internal", "--external"], /option '--internal' cannot be used with option '--external'|option '--external' cannot be used with option '--internal'/);
    await usageError(["rewrite", "examples/site", "--url", "https://example.com/"], "docbase: rewrite: say how: --url U with --absolute or --relative, or --from A --to B");
    await usageError(["rewrite", "examples/site", "--absolute"], "docbase: rewrite: --absolute needs --url");
    await usageError(["rewrite", "examples/site", "--url", "https://example.com/", "--absolute", "--relative"], "--absolute and --relative exclude each other");
    await usageError(["rewrite", "examples/site", "--from", "https://example.com/"], "docbase: rewrite: --from needs --to");
    await usageError(["rewrite", "examples/site", "--to", "https://example.com/"], "docbase: rewrite: --to needs --from");
    await usageError(["rewrite", "examples/site", "--from", "https://a.example/", "--to", "https://b.example/", "--absolute"], "rewrite: one job at a time: --absolute, --from/--to exclude each other");
    await usageError(["rewrite", "examples/site", "--from", "https://a.example/", "--to", "https://b.example/", "--url", "https://a.example/"], "use either --from A --to B, or --url U");
    await usageError(["rewrite", "examples/site", "--url", "https://a.example/", "--map-format", "vite"], "--map-format needs --map FILE");
  });

  it("a bad --jobs or --encoding", async () => {
    await usageError(["links", "examples/site", "--url", "https://example.com/", "--jobs", "0"], `docbase: option '-j, --jobs <n>' argument '0' is invalid. not a positive integer: "0"`);
    await usageError(["check", "examples/site", "--url", "https://example.com/", "-j", "two"], "not a positive integer");
    await usageError(["links", "examples/site", "--url", "https://example.com/", "--encoding", "klingon"], 'docbase: --encoding: unknown encoding label: "klingon"');
  });

  it("a command given the wrong kind of input", async () => {
    await usageError(["base", "examples/site", "--url", "https://example.com/"], "docbase: base: examples/site is a directory");
    await usageError(["rewrite", "examples/site/index.html", "--url", "https://example.com/", "--absolute"], "docbase: rewrite: examples/site/index.html is not a directory");
    const dir = writeTree(temporaryDirectory(), { "site/a.html": "" });
    await usageError(["rewrite", path.join(dir, "site"), "--url", "https://example.com/", "--absolute", "--out", dir], "contains the site");
  });
});
