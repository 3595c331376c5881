/**
 * Hostile inputs: huge hosts, paths, percent runs, IPv4 numbers, IPv6
 * pieces, ports and whole URLs. parseURL must return (a record or null)
 * without throwing or overflowing the stack, and in linear time.
 *
 * Linear time is told by counting work, not by timing it (a timing moves
 * with the machine's load): each input is parsed at size n and 4n under
 * V8's precise coverage with block counts, and the executions of the
 * parser's blocks (every function call and loop iteration in the
 * implementation's own code) must grow less than 5 times — linear work
 * grows 4 times, quadratic 16. The counts are exact and repeat from run to
 * run. What they cannot see is work inside a built-in called from the
 * parser (a `String.prototype.indexOf` that rescans from the start): the
 * parser's calls into built-ins take slices or positions, and the hostile
 * round trips of test/links cover whole documents by bytes.
 */

import { describe, expect, it } from "vitest";
import { blockCounter } from "../block-count.ts";
import { impl, implName } from "./impl.ts";

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

/** The scripts of the implementation under test, whose block executions are counted. */
const implementationScripts = implName === "docbase" ? /\/src\/core\// : /\/node_modules\/(whatwg-url|tr46|webidl-conversions)\//;

/** The block executions in the implementation's scripts since the last call. */
const takeCount = blockCounter(implementationScripts);

/** The work of one parse (and serialization): its block executions. */
function work(sample: Sized): number {
  takeCount();
  parseOnce(sample);
  return takeCount();
}

/** Linear work gives 4 (to a few blocks); quadratic work 16. */
const maxRatio = 5;

describe(`${impl.name}: hostile input`, () => {

  it.each(hostileCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const small = sized(c, c.size / 4);
    const large = sized(c, c.size);
    // A throw (a stack overflow is a RangeError) fails the test here.
    parseOnce(small); // warm-up: lazy compilation and one-time set-up are not the input's work
    const smallWork = work(small);
    const largeWork = work(large);
    expect(smallWork, "the implementation's scripts are counted").toBeGreaterThan(0);
    const ratio = largeWork / smallWork;
    expect(ratio, `block executions at ${large.input.length} code units / at ${small.input.length}: ${largeWork} / ${smallWork}`).toBeLessThan(maxRatio);
  });
});
