/**
 * The real pages and URLs the suites read: `test/fixtures/corpus/` (see its
 * README for origin and licence). Every read checks the file against the
 * folder's SHA256SUMS, and a missing file throws: a suite must never pass by
 * skipping its data.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

/** The folder of the vendored corpus. */
export const corpusDirectory: string = resolve(import.meta.dirname, "fixtures/corpus");

/** A real page with the base URL it was served at. */
export interface CorpusPage {
  /** The gzip'd file's name in {@link corpusDirectory}. */
  readonly file: string;
  /** The page's URL (none of the pages has a `<base href>`). */
  readonly url: string;
}

/** The four real pages, largest first. */
export const corpusPages: readonly CorpusPage[] = [
  { file: "html-whatwg-html5-spec-2009.html.gz", url: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", url: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", url: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", url: "https://en.wikipedia.org/wiki/New_Zealand" },
];

let digests: Map<string, string> | undefined;

function recordedDigest(file: string): string {
  digests ??= new Map(
    readFileSync(join(corpusDirectory, "SHA256SUMS"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [digest, name] = line.split(/\s+/);
        return [name!, digest!] as const;
      }),
  );
  const digest = digests.get(file);
  if (digest === undefined) throw new Error(`${file} is not listed in ${join(corpusDirectory, "SHA256SUMS")}`);
  return digest;
}

/** The unzipped bytes of one corpus file, checked against SHA256SUMS. */
export function readCorpusFile(file: string): Uint8Array {
  const gz = readFileSync(join(corpusDirectory, file));
  const digest = createHash("sha256").update(gz).digest("hex");
  if (digest !== recordedDigest(file)) {
    throw new Error(`${file}: SHA-256 ${digest}, SHA256SUMS says ${recordedDigest(file)}`);
  }
  return new Uint8Array(gunzipSync(gz));
}

/** The lines of the vendored URL list (the BOM of its first line removed). */
export function corpusURLs(): string[] {
  return new TextDecoder().decode(readCorpusFile("urls-kasztp.txt.gz")).split("\n");
}
