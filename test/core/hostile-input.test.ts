/**
 * Hostile inputs: huge hosts, paths, percent runs, IPv4 numbers, IPv6
 * pieces, ports and whole URLs. parseURL must return (a record or null)
 * without throwing or overflowing the stack, and in linear time.
 *
 * Timings are normally kept out of tests (benchmarks live in bench/); this is
 * a complexity check, not a benchmark: each input is parsed at size n and 4n,
 * and the time ratio must stay well below the 16 that quadratic work would
 * give (limit 10, taking the fastest of a few runs, with a floor on the
 * small-size time so that timer noise cannot fail it). A quadratic parser is
 * already slow at size n, so the floor hides nothing; but quadratic work
 * that is small next to the linear work at size n can stay under the limit.
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { impl } from "./impl.ts";

// A full garbage collection before each timed run, so that garbage left by
// earlier runs (of 10 MB inputs) is not collected inside a later one.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * An input family: `make(n)` builds the input of size n (and `base(n)`, if
 * given, the base to parse it against); `size` is the largest n (4 × the
 * small one).
 */
interface HostileCase {
  readonly name: string;
  readonly size: number;
  readonly make: (n: number) => string;
  readonly base?: (n: number) => string;
}

const hostileCases: readonly HostileCase[] = [
  { name: "a host of 200k labels", size: 200_000, make: (n) => `https://${"a.".repeat(n)}b/` },
  { name: "a host of 200k non-ASCII labels", size: 200_000, make: (n) => `https://${"ü.".repeat(n)}b/` },
  { name: "a host of 200k empty labels", size: 200_000, make: (n) => `https://a${".".repeat(n)}/` },
  { name: "an opaque host of 300k code points", size: 300_000, make: (n) => `sc://${"x".repeat(n)}/` },
  { name: "300k ../ segments", size: 300_000, make: (n) => `https://h/${"../".repeat(n)}x` },
  { name: "300k a/ then 300k ../", size: 300_000, make: (n) => `https://h/${"a/".repeat(n)}${"../".repeat(n)}x` },
  { name: "100k a/../ pairs", size: 100_000, make: (n) => `https://h/${"a/../".repeat(n)}x` },
  { name: "100k %2e%2E/ segments", size: 100_000, make: (n) => `https://h/${"%2e%2E/".repeat(n)}x` },
  {
    name: "300k ../ against a base of 300k segments",
    size: 300_000,
    make: (n) => "../".repeat(n),
    base: (n) => `https://h/${"a/".repeat(n)}`,
  },
  {
    name: "a 300k-segment base and a fragment",
    size: 300_000,
    make: () => "#f",
    base: (n) => `https://h/${"a/".repeat(n)}`,
  },
  { name: "300k backslash segments", size: 300_000, make: (n) => `https://h${"\\a".repeat(n)}` },
  { name: "300k /./ segments", size: 300_000, make: (n) => `https://h${"/.".repeat(n)}/x` },
  { name: "300k /./ segments in a file URL", size: 300_000, make: (n) => `file:///C:${"/.".repeat(n)}/x` },
  { name: "300k /./ segments in a non-special URL", size: 300_000, make: (n) => `sc:${"/.".repeat(n)}//x` },
  { name: "a million % in the path", size: 1_000_000, make: (n) => `https://h/${"%".repeat(n)}` },
  {
    name: "a million % in the query and fragment",
    size: 1_000_000,
    make: (n) => `https://h/?${"%".repeat(n)}#${"%".repeat(n)}`,
  },
  { name: "a million % in the host", size: 1_000_000, make: (n) => `https://${"%".repeat(n)}/` },
  { name: "300k %41 in the host", size: 300_000, make: (n) => `https://${"%41".repeat(n)}/` },
  { name: "300k % in the userinfo", size: 300_000, make: (n) => `https://${"%".repeat(n)}:${"%".repeat(n)}@h/` },
  { name: "300k %zz in an opaque path", size: 300_000, make: (n) => `sc:${"%zz".repeat(n)}` },
  { name: "a 100k-digit IPv4 number", size: 100_000, make: (n) => `https://${"9".repeat(n)}/` },
  { name: "a 100k-digit hex IPv4 number", size: 100_000, make: (n) => `https://0x${"f".repeat(n)}/` },
  { name: "a 100k-digit octal IPv4 number", size: 100_000, make: (n) => `https://0${"7".repeat(n)}/` },
  { name: "100k zeros then an IPv4 number", size: 100_000, make: (n) => `https://${"0".repeat(n)}1/` },
  { name: "an IPv4 address of 100k parts", size: 100_000, make: (n) => `https://${"1.".repeat(n)}1/` },
  { name: "an IPv6 address of 100k pieces", size: 100_000, make: (n) => `https://[${"1:".repeat(n)}1]/` },
  { name: "an IPv6 address of 100k colons", size: 100_000, make: (n) => `https://[${":".repeat(n)}]/` },
  { name: "an IPv6 piece of 100k digits", size: 100_000, make: (n) => `https://[::${"0".repeat(n)}1]/` },
  { name: "an IPv6 address of 100k embedded IPv4 dots", size: 100_000, make: (n) => `https://[::${"1.".repeat(n)}1]/` },
  {
    name: "an IPv6 address with 100k-digit embedded IPv4",
    size: 100_000,
    make: (n) => `https://[::1.${"1".repeat(n)}]/`,
  },
  { name: "an unclosed [ of 100k code points", size: 100_000, make: (n) => `https://[${"a".repeat(n)}/` },
  { name: "a 10 MB URL", size: 10_000_000, make: (n) => tenMegabyteURL(n) },
  { name: "a huge port", size: 1_000_000, make: (n) => `https://h:${"9".repeat(n)}/` },
  { name: "a huge port of zeros", size: 1_000_000, make: (n) => `https://h:${"0".repeat(n)}80/` },
  { name: "1M tabs and newlines", size: 1_000_000, make: (n) => `ht\ttp://h/${"\t\n\r".repeat(n / 3)}x` },
  {
    name: "1M leading and trailing C0 controls and spaces",
    size: 1_000_000,
    make: (n) => `${" \u0001".repeat(n / 2)}https://h/${" \u001F".repeat(n / 2)}`,
  },
  { name: "a 1M-code-point scheme", size: 1_000_000, make: (n) => `${"a".repeat(n)}:x` },
  { name: "300k lone surrogates", size: 300_000, make: (n) => `https://h/${"\uD800".repeat(n)}?${"\uDC00".repeat(n)}` },
  { name: "300k astral code points", size: 300_000, make: (n) => `https://h/${"\u{1F600}".repeat(n / 2)}` },
  { name: "200k @ in the authority", size: 200_000, make: (n) => `https://${"@".repeat(n)}h/` },
  { name: "200k : in the authority", size: 200_000, make: (n) => `https://u${":".repeat(n)}@h/` },
  { name: "1M slashes after the scheme", size: 1_000_000, make: (n) => `https:${"/".repeat(n)}h/` },
  { name: "1M slashes in a file URL", size: 1_000_000, make: (n) => `file:${"/".repeat(n)}C:/x` },
];

/** About n code units of a plausible URL: long path, long query, long fragment. */
function tenMegabyteURL(n: number): string {
  const third = Math.floor(n / 3);
  return (
    `https://user:pass@example.com:8080/` +
    "segment/".repeat(third / 8) +
    "?" +
    "key=value&".repeat(third / 10) +
    "#" +
    "fragment ".repeat(third / 9)
  );
}

interface Sized {
  readonly input: string;
  /** A parsed base record (parsed outside the timing), or undefined. */
  readonly base: unknown;
}

function sized(c: HostileCase, n: number): Sized {
  if (c.base === undefined) return { input: c.make(n), base: undefined };
  const base = impl.parseURL(c.base(n));
  expect(base, "the base parses").not.toBeNull();
  return { input: c.make(n), base };
}

/** Parses once; checks that a record serializes. */
function parseOnce({ input, base }: Sized): void {
  const record = base === undefined ? impl.parseURL(input) : impl.parseURL(input, { base });
  if (record !== null) expect(typeof impl.serializeURL(record)).toBe("string");
}

/**
 * The mean time of one parse over a batch of at least {@link batchMs} (one
 * parse when a single one takes that long), after a full garbage collection.
 */
function timeBatch(sample: Sized): number {
  collectGarbage();
  let runs = 0;
  let elapsed = 0;
  const start = performance.now();
  do {
    parseOnce(sample);
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < batchMs);
  return elapsed / runs;
}

/** Batches last at least this long, so that timer resolution and single pauses average out. */
const batchMs = 25;
/** Below this, the small-size time is taken to be this (timer and GC noise). */
const floorMs = 2;
const maxRatio = 10;
/** Linear work gives about 4; above this, the large size is measured again. */
const remeasureRatio = 6;

describe(`${impl.name}: hostile input`, () => {
  it.each(hostileCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const small = sized(c, c.size / 4);
    const large = sized(c, c.size);
    // A throw (a stack overflow is a RangeError) fails the test here.
    parseOnce(small); // warm-up
    let tSmall = Infinity;
    for (let i = 0; i < 3; i++) tSmall = Math.min(tSmall, timeBatch(small));
    // Measure the large size once, and again (up to 3 batches in all) only
    // while the ratio is above what linear work gives with some noise, so
    // that a quadratic parser is not run three times at 4n.
    let tLarge = Infinity;
    for (let i = 0; i < 3 && tLarge / Math.max(tSmall, floorMs) >= remeasureRatio; i++) {
      tLarge = Math.min(tLarge, timeBatch(large));
    }
    // Still above the limit: on a machine busy with other work, one size may
    // have been measured in a quiet moment and the other not. Measure both
    // again, in turn, a few times (work that is really quadratic stays near 16).
    for (let i = 0; i < 4 && tLarge / Math.max(tSmall, floorMs) >= maxRatio; i++) {
      tSmall = Math.min(tSmall, timeBatch(small));
      tLarge = Math.min(tLarge, timeBatch(large));
    }
    const ratio = tLarge / Math.max(tSmall, floorMs);
    expect(
      ratio,
      `time at ${large.input.length} code units / time at ${small.input.length} (${tLarge.toFixed(1)} ms / ${tSmall.toFixed(1)} ms)`,
    ).toBeLessThan(maxRatio);
  });
});
