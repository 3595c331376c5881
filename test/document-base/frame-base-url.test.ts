// frameCreationBaseURL: the container's base URL when the parser created a frame.
import { describe, expect, it } from "vitest";
import { serializeURL } from "../../src/core/index.ts";
import { createDocumentContext, frameCreationBaseURL } from "../../src/document-base/index.ts";
import { kits } from "./trees.ts";

const P = "https://example.test/dir/page.html";

describe.each(kits.map((kit) => [kit.name, kit] as const))("frameCreationBaseURL over %s", (_name, kit) => {
  function frameBase(html: string): string {
    const { document, options } = kit.load(html, { url: P });
    const context = createDocumentContext(kit.adapter, document, { ...options, url: P });
    try {
      return serializeURL(frameCreationBaseURL(context, kit.byId(document, "f")));
    } finally {
      context.dispose();
    }
  }

  it("is the document base URL when the first <base href> precedes the frame", () => {
    expect(frameBase(`<base href="/b/"><iframe id=f></iframe><base href="/later/">`)).toBe("https://example.test/b/");
  });

  it("is the fallback base URL when the first <base href> comes after the frame", () => {
    expect(frameBase(`<body><iframe id=f srcdoc="x"></iframe><base href="foo://h/d/">`)).toBe(P);
  });

  it("ignores a base without href, a template's and an SVG one before the frame", () => {
    expect(frameBase(`<base target=x><template><base href="/t/"></template><svg><base href="/s/"/></svg><iframe id=f></iframe><base href="/b/">`)).toBe(P);
  });

  it("is the document URL without any base", () => {
    expect(frameBase(`<iframe id=f></iframe>`)).toBe(P);
  });
});
