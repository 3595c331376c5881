// A srcdoc frame's about base URL is its container's base URL when the parser
// created the iframe: a <base> later in the source does not count yet.
import { describe, expect, it } from "vitest";
import { extractLinks } from "../../src/links/index.ts";

const url = "https://example.test/d/dir/page.html";
const anchors = (html: string): (string | null)[] => extractLinks(html, { url }).filter((l) => l.element === "a").map((l) => l.url);

describe("srcdoc frames and the container's <base>", () => {
  it("a base before the iframe counts", () => {
    expect(anchors(`<base href="/b/"><iframe srcdoc="<a href='y'>"></iframe>`)).toEqual(["https://example.test/b/y"]);
  });
  it("a base after the iframe does not (found by the Chromium differential suite)", () => {
    expect(anchors(`<body><iframe srcdoc="<a href='../y'>"></iframe><base href="foo://h/d/">`)).toEqual(["https://example.test/d/y"]);
  });
  it("a base in template contents never counts; a later one still does not", () => {
    expect(anchors(`<template><base href="/t/"></template><iframe srcdoc="<a href='y'>"></iframe><base href="/late/">`)).toEqual([
      "https://example.test/d/dir/y",
    ]);
  });
  it("the container's own links still resolve against the later base", () => {
    const links = extractLinks(`<a href="x"></a><iframe srcdoc="<a href='y'>"></iframe><base href="/late/">`, { url });
    expect(links.filter((l) => l.element === "a").map((l) => l.url)).toEqual(["https://example.test/late/x", "https://example.test/d/dir/y"]);
  });
});
