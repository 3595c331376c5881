/**
 * The command line: commander's program with the four commands, their
 * flags and help (with examples), and {@link run}, which parses argv,
 * runs the command and returns the exit code.
 *
 * @module
 */

import { Command, CommanderError, InvalidArgumentError, Option, type OptionValues } from "commander";
import { applyConfigFile, CONFIG_FILE_NAME, findConfigFile } from "./config-file.ts";
import { isUsageError } from "./errors.ts";
import { internalErrorMessage } from "./file-task.ts";
import { linkFilterFlags } from "./link-filter-options.ts";
import type { Output } from "./output.ts";
import { programVersion } from "./version.ts";


const MAIN_HELP = `
The --url is the URL the files are served at: for a directory, the site's
root URL (the file a/b.html is at <url>a/b.html, a/index.html at <url>a/);
for one file or standard input (-), the document's own URL.

Exit codes: 0 fine; 1 check reported something, or a file could not be
read, decoded or written; 2 usage error (bad flag, missing file, bad URL).

Examples:
  $ docbase links public --url https://example.com/
  $ docbase links page.html --url https://example.com/docs/page.html --json
  $ docbase check public --url https://example.com/
  $ docbase rewrite site --from https://old.example/ --to https://new.example/v2/ --out dist
  $ docbase base page.html --url https://example.com/docs/page.html`;

const LINKS_HELP = `
Every URL in the documents, as a browser resolves it: URL attributes (href,
src, srcset, ping, action, poster, data, cite, itemtype, SVG href, ...),
meta refresh, url() and @import in style attributes and <style>, and the
documents of iframe srcdoc attributes. Each with file:line:column, element
and attribute, the value as written (decoded), and the resolved URL.

Internal links are those under the site root (for a directory, --url; for
one file, the directory of its --url).

Files of any size are read exactly: one larger than 8 MiB is read twice (a
first pass settles its encoding and its <base>), in bounded memory. So is
standard input: past --max-hold it is spooled to a temporary file first.

Examples:
  $ docbase links public --url https://example.com/
  $ docbase links public --url https://example.com/ --json | jq -r .url
  $ docbase links public --url https://example.com/ --external
  $ curl -s https://example.com/ | docbase links - --url https://example.com/`;

const CHECK_HELP = `
Reports, as file:line:column: type: message,
  - URL validation errors, by the URL Standard's names (invalid-URL-unit,
    domain-to-ASCII, port-out-of-range, ...), at the exact
    character (inside a character reference, at its "&");
  - missing-file: links under the site root to files that are not in the
    site (percent-decoded; a directory URL needs an index.html);
  - missing-fragment: links whose #fragment names no element of the page
    they lead to, as a browser scrolling to it looks: an id, then an
    <a name>, the fragment as written and then percent-decoded (UTF-8);
    "#" and "#top" are the top of the page, a text fragment (#:~:text=)
    names no element. Checked in the page itself (where a <base> elsewhere
    sends "#x" elsewhere), in its srcdoc documents (about:srcdoc#x), and in
    the other HTML pages read in the same run; not in other files or
    external pages, nor in CSS url() or an itemid (an item's name).
    --no-fragments turns it off (and lets
    each page's report print as soon as it is read);
  - base-URL surprises: base-after-links (relative links before the <base>
    resolve against it all the same), base-unusable (a data:, javascript:
    or unparsable <base href> is ignored), base-not-first (only the first
    <base href> counts), base-in-body, base-in-template, base-in-shadow-root.
Exits with 1 when it reports anything.

A file larger than 8 MiB is read as a stream (twice: a first pass settles
its encoding and its <base>), in bounded memory whatever its size: its URL
validation errors and missing files are checked; its fragments and base-URL
surprises, which need the whole document, are not.

Examples:
  $ docbase check public --url https://example.com/
  $ docbase check public --url https://example.com/ --json | jq -s 'group_by(.type)'
  $ docbase check page.html --url https://example.com/docs/page.html`;

const REWRITE_HELP = `
Rewrites the links of every HTML file of a site, and nothing else: every
other byte (quotes, character references, encoding) stays as it was.
  --url U --absolute   every link becomes the absolute URL it resolves to
  --url U --relative   portable: every link into the site becomes a path
                       relative to its document (../blog/post.html), so the
                       site works from any root, a sub-path, or from disk
                       (add --index-file index.html for disk: docs/ becomes
                       docs/index.html); links elsewhere become absolute
  --from A --to B      the site moves from root A to root B: links into A
                       point to the same place under B, links elsewhere
                       keep pointing where they did (with --only or
                       --include/--exclude, only those links move: a CDN)
  --url U --map FILE   links to a URL the map moves point to its new URL, in
                       the same form: a JSON object of paths or URLs
                       (rev-manifest.json), Vite's manifest.json, or a
                       _redirects file (rules that are not redirects, or
                       depend on the visitor, are reported as not applied)
--only, --include and --exclude choose the links (URL patterns, as
https://urlpattern.spec.whatwg.org/, relative ones read against the root).
A map or a pattern that is wrong is an error, and no file is touched.
Files are written atomically (a temporary file, then a rename): a run that
is interrupted leaves each file old or new, never half-written; the next
run removes the temporary files it left. Files that cannot be read or
decoded are reported and left as they are. With --out, the site is written
to DIR (files that are not HTML are copied) and the input is not touched;
an --out that is the site itself (even through a symbolic link) rewrites it
in place, with the same safeguards (read-only files and files with more
than one hard link are left as they are).
Files larger than 8 MiB are rewritten as streams, in bounded memory, whatever
their size (--max-file-size caps only files read whole), and exactly: each
is read twice, a first pass settling its encoding and its <base>. So is
standard input (-), the document at the root URL, written to standard
output: past --max-hold it is spooled to a temporary file first.

Examples:
  $ docbase rewrite site --url https://example.com/ --relative --dry-run
  $ docbase rewrite site --url https://example.com/ --absolute --out build
  $ docbase rewrite site --from https://example.com/docs/ --to https://docs.example.com/
  $ docbase rewrite site --url https://example.com/ --relative --index-file index.html --out offline
  $ docbase rewrite site --from https://example.com/ --to https://cdn.example.net/ --only resources
  $ docbase rewrite site --url https://example.com/ --map rev-manifest.json
  $ curl -s https://example.com/ | docbase rewrite - --url https://example.com/ --absolute > page.html`;

const BASE_HELP = `
Prints the document's URL, encoding, fallback base URL and document base
URL, which <base> sets it (the first with an href), which bases are
ignored and why, and the relative links that come before the <base>.

Examples:
  $ docbase base public/docs/guide.html --url https://example.com/docs/guide.html
  $ docbase base page.html --url https://example.com/a/ --json`;

/** `--max-file-size`: a positive whole number of bytes, with an optional K, M or G (binary) suffix. */
function byteSize(value: string): number {
  const match = /^(\d+)([KMG]?)i?B?$/i.exec(value.trim());
  const n = match === null ? Number.NaN : Number(match[1]) * 1024 ** " KMG".indexOf((match[2] || " ").toUpperCase());
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`not a size in bytes: ${JSON.stringify(value)} (e.g. 1048576, 512K, 64M, 1G)`);
  return n;
}

/** A whole number of 0 or more. */
function wholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError(`not a whole number: ${JSON.stringify(value)}`);
  return Number(value);
}

/** A number greater than 0 (seconds). */
function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^[0-9]*\.?[0-9]+$/.test(value) || !(n > 0)) throw new InvalidArgumentError(`not a positive number: ${JSON.stringify(value)}`);
  return n;
}

/** A flag given more than once: every value, in order. */
function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--jobs`: a positive whole number. */
function positiveInteger(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`not a positive integer: ${JSON.stringify(value)}`);
  return Number(value);
}

/** The flags more than one command takes, each described once (a new Option for each command that takes it). */
const FLAGS = {
  url: () => new Option("--url <url>", "the site's root URL (directory) or the document's URL (file, -); default: https://docbase.invalid/, a placeholder for when the site's URL does not matter"),
  json: () => new Option("--json", "one JSON object per line on standard output"),
  encoding: () => new Option("--encoding <label>", "the documents' encoding (any Encoding Standard label), as an HTTP charset would give it; default: sniffed (BOM, <meta charset>, windows-1252)"),
  maxFileSize: () => new Option("--max-file-size <bytes>", "the largest file read, in bytes (K, M, G suffixes); a larger one is reported and skipped (default: 64M)").argParser(byteSize),
  followSymlinks: () => new Option("--follow-symlinks", "follow symbolic links out of the site root (default: a link inside the site is read as its target, once; one outside is reported and skipped)"),
  jobs: () => new Option("-j, --jobs <n>", "worker processes (default: every core; capped by the cores, the files and the free memory)").argParser(positiveInteger),
  quiet: () => new Option("-q, --quiet", "no progress bar and no summary on standard error"),
  progress: () => new Option("--progress", "show the progress bar even when standard error is not a terminal"),
  maxHold: () =>
    new Option("--max-hold <bytes>", "standard input (-): the most held in memory (K, M, G suffixes); a longer input is spooled to a temporary file (TMPDIR) and read as a file, exactly (default: 1M)").argParser(byteSize),
  maxToken: () =>
    new Option("--max-token <bytes>", "the longest token (attribute, comment, <style> text) of a file read as a stream, in characters (K, M, G suffixes); a longer one is that file's error, with its line (default: 32M)").argParser(byteSize),
  noSpool: () =>
    new Option("--no-spool", "standard input (-): never spool; past --max-hold, a later <base> or <meta charset> may not be applied (said before the first output, and warned at the end)"),
};

/** The flags of the commands that stream standard input. */
const streamingFlags = (): Option[] => [FLAGS.maxHold(), FLAGS.noSpool()];

/** The flags of every command that reads documents. */
const readingFlags = (): Option[] => [FLAGS.json(), FLAGS.encoding(), FLAGS.maxFileSize()];

/** The flags of the commands that read a site's files on the worker pool (after {@link readingFlags}). */
const siteFlags = (): Option[] => [...readingFlags(), FLAGS.maxToken(), FLAGS.followSymlinks(), FLAGS.jobs(), FLAGS.quiet(), FLAGS.progress()];

/**
 * A command's function: its input, its options as commander gives them
 * (named as the command's own options type says: `never` here, as they
 * differ), and where it writes; it resolves to the exit code.
 */
type CommandFunction = (input: string, options: never, output: Output) => Promise<number>;

/**
 * A command of the program: its name, what it does, its argument, its
 * flags (in the order `--help` lists them), the text after its help, and
 * its function, loaded when it runs.
 */
interface CommandDeclaration {
  readonly name: string;
  readonly description: string;
  readonly argument: readonly [name: string, description: string];
  readonly options: readonly Option[];
  readonly help: string;
  readonly load: () => Promise<CommandFunction>;
}

/**
 * The four commands.
 *
 * Optimisation: a command's module (and the library under it) loads when
 * the command runs, not for `--help`.
 */
function commandDeclarations(): CommandDeclaration[] {
  return [
    {
      name: "links",
      description: "list every link of a file, a site directory, or standard input (-), resolved",
      argument: ["<input>", "an HTML file, a directory of HTML files, or - for standard input"],
      options: [
        FLAGS.url(),
        new Option("--internal", "only links under the site root").conflicts("external"),
        new Option("--external", "only links outside the site root").conflicts("internal"),
        ...siteFlags(),
        ...streamingFlags(),
      ],
      help: LINKS_HELP,
      load: async () => (await import("./commands/links.ts")).linksCommand,
    },
    {
      name: "check",
      description: "report invalid URLs, links to missing files or fragments, and base-URL surprises (exit 1 if any)",
      argument: ["<input>", "an HTML file, a directory of HTML files, or - for standard input (no missing-file check)"],
      options: [
        FLAGS.url(),
        new Option("--no-fragments", "do not check that links' fragments (#id) name an element of their page"),
        new Option("--strict", "warnings fail the run too (exit 1), not only errors"),
        new Option("--format <format>", "text (grouped by target), json (lines, then a summary), sarif, junit or markdown").choices(["text", "json", "sarif", "junit", "markdown"]).conflicts("json"),
        new Option("--exclude <regex>", "do not check links whose URL matches this regular expression (repeatable)").argParser(repeatable),
        new Option("--exclude-path <glob>", "do not read files whose path under the site root matches this glob (repeatable)").argParser(repeatable),
        new Option("--index-files <names>", "the files a directory URL is served from, in order, comma-separated (default: index.html,index.htm)"),
        new Option("--clean-urls", "docs/intro is served from docs/intro.html (GitHub Pages, Netlify, Cloudflare Pages)"),
        new Option("--external", "check links to other sites too (http: and https:), one request per URL"),
        new Option("--external-fragments", "with --external: check fragments in external HTML pages (a GET of the page)"),
        new Option("--concurrency <n>", "with --external: requests open at once (default 16)").argParser(positiveInteger),
        new Option("--per-host <n>", "with --external: requests open at once to one host (default 2)").argParser(positiveInteger),
        new Option("--timeout <seconds>", "with --external: the longest one request may take (default 10)").argParser(positiveNumber),
        new Option("--retries <n>", "with --external: more attempts after a 429, a 503 or a reset connection (default 2)").argParser(wholeNumber),
        new Option("--max-redirects <n>", "with --external: redirects followed (default 5)").argParser(wholeNumber),
        new Option("--accept <statuses>", "with --external: accepted status codes and ranges, e.g. 200-299,429 (default 200-299)"),
        new Option("--user-agent <text>", "with --external: the User-Agent sent"),
        new Option("--method <method>", "with --external: head-then-get (default) or get").choices(["head-then-get", "get"]),
        new Option("--cache <file>", "with --external: remember answers in this file and reuse them next run"),
        new Option("--cache-max-age <seconds>", "with --external: how long a cached answer is reused (default 86400)").argParser(positiveNumber),
        ...siteFlags(),
      ],
      help: CHECK_HELP,
      load: async () => (await import("./commands/check.ts")).checkCommand,
    },
    {
      name: "rewrite",
      description: "rewrite a site's links: absolute, portable relative, moved to a new root, or as a URL map says",
      argument: ["<dir>", "the site's directory, or - for standard input (the document at the root URL, rewritten to standard output as a stream)"],
      options: [
        new Option("--url <url>", "the site's root URL (with --absolute, --relative or --map)"),
        new Option("--absolute", "make every link absolute"),
        new Option("--relative", "make every link into the site relative to its document (portable); others absolute"),
        new Option("--index-file <name>", "with --relative: a link to a directory names this file in it (index.html), for browsing from disk"),
        new Option("--from <url>", "the site's old root URL (with --to)"),
        new Option("--to <url>", "the site's new root URL (with --from)"),
        new Option("--map <file>", "rewrite links to the URLs this map moves: JSON (rev-manifest.json), a Vite manifest.json, or _redirects"),
        new Option("--map-format <format>", "the map's format (default: detected)").choices(["json", "vite", "redirects"]),
        ...linkFilterFlags("rewrite"),
        new Option("--out <dir>", "write the rewritten site here (other files are copied) instead of in place"),
        new Option("-n, --dry-run", "print the changes per file; write nothing"),
        ...siteFlags(),
        ...streamingFlags(),
      ],
      help: REWRITE_HELP,
      load: async () => (await import("./commands/rewrite.ts")).rewriteCommand,
    },
    {
      name: "base",
      description: "print a document's base URL and how it is derived",
      argument: ["<file>", "an HTML file, or - for standard input"],
      options: [new Option("--url <url>", "the document's URL").makeOptionMandatory(), ...readingFlags()],
      help: BASE_HELP,
      load: async () => (await import("./commands/base.ts")).baseCommand,
    },
  ];
}

/**
 * Builds the program. Output goes through `output` (commander's own
 * messages too); errors become exceptions (`exitOverride`) that
 * {@link run} turns into exit codes.
 */
function buildProgram(output: Output, setExitCode: (code: number) => void): Command {
  const program = new Command("docbase");
  program
    .description("What every URL in an HTML document points to, per the WHATWG URL and HTML standards.")
    .version(programVersion(), "-V, --version")
    .addHelpText("after", MAIN_HELP)
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (s) => output.out(s),
      writeErr: (s) => output.err(s),
      outputError: (s, write) => write(`docbase: ${s.replace(/^error: /, "")}`),
    })
    .exitOverride();
  for (const declaration of commandDeclarations()) {
    const command = program.command(declaration.name).description(declaration.description).argument(...declaration.argument);
    for (const option of declaration.options) command.addOption(option);
    command.addOption(new Option("--config <file>", `read options from this JSON file (default: the nearest ${CONFIG_FILE_NAME} from the input's directory upwards); flags win over it`));
    command.addHelpText("after", declaration.help).action(async (input: string, _options: OptionValues, self: Command) => {
      const file = findConfigFile(input, self.getOptionValue("config") as string | undefined);
      if (file !== null) applyConfigFile(file, self, program.commands);
      setExitCode(await (await declaration.load())(input, self.opts() as never, output));
    });
  }
  return program;
}

/**
 * Runs the docbase command with `argv` (as `process.argv`: the node
 * binary and the script first) and returns the exit code: 0, 1 (check
 * reported something, or a file could not be read, decoded or written),
 * or 2 (usage error: bad flag, missing file, bad URL). Output goes to
 * process.stdout and process.stderr unless `output` says otherwise.
 *
 * @example
 * ```ts
 * import { run } from "docbase/cli";
 * const code = await run(["node", "docbase", "check", "site", "--url", "https://example.com/"]);
 * // prints "site/about.html:4:10: missing-file: ..." lines; code is 1 when there are any
 * await run(["node", "docbase", "links", "-", "--url", "nope"]); // prints a usage error, returns 2
 * ```
 */
export async function run(argv: readonly string[], output?: Output): Promise<number> {
  const io: Output = output ?? {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    drain: () => (process.stdout.writableNeedDrain ? new Promise<void>((resolve) => process.stdout.once("drain", () => resolve())) : Promise.resolve()),
  };
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  if (argv.length <= 2) {
    io.err(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit with 0; everything else commander rejects is a usage error.
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : 2;
    }
    if (isUsageError(error)) {
      io.err(`docbase: ${error.message}\n(run with --help for usage)\n`);
      return 2;
    }
    io.err(`docbase: ${internalErrorMessage(error)}\n`);
    return 3;
  }
}
