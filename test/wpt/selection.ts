/**
 * The web-platform-tests files the jsdom runner (test/wpt/) needs: the test
 * pages it runs, the scripts and resources they load, and the pin they come
 * from. scripts/wpt-update.ts reads {@link runnerFiles} to refresh them;
 * test/wpt/wpt.test.ts runs {@link runnerTests}.
 *
 * Every file is vendored byte for byte at its WPT path below
 * test/fixtures/wpt/ (see its README for the license and the pin).
 *
 * @module
 */

/**
 * The wpt commit every file of {@link runnerFiles} was taken from (wpt
 * `master` of 2026-01-20). The URL data files the tests load
 * (`url/resources/*.json`) are pinned on their own, newer, in
 * test/fixtures/wpt/README.md.
 *
 * @example
 * ```ts
 * `https://raw.githubusercontent.com/web-platform-tests/wpt/${runnerWPTCommit}/url/a-element.html`;
 * ```
 */
export const runnerWPTCommit = "ec70c4d2030e56f22b08901bdf742db55c13c77d";

/**
 * The test pages the runner opens, by WPT path. A `.window.js` file is run
 * through the `.window.html` page the server wraps it in, as wptserve does.
 * Each page runs once per variant (`<meta name=variant>` or `// META:
 * variant=`), as a browser's WPT run does.
 *
 * @example
 * ```ts
 * runnerTests.includes("dom/nodes/Node-baseURI.html"); // true
 * ```
 */
export const runnerTests: readonly string[] = [
  "dom/nodes/Node-baseURI.html",
  "html/infrastructure/urls/base-url/document-base-uri-synthetic-document.html",
  "html/infrastructure/urls/dynamic-changes-to-base-urls/dynamic-urls.sub.html",
  "html/infrastructure/urls/dynamic-changes-to-base-urls/historical.sub.xhtml",
  "html/infrastructure/urls/resolving-urls/query-encoding/attributes.sub.html",
  "html/infrastructure/urls/resolving-urls/query-encoding/lone-surrogates.sub.html",
  "html/infrastructure/urls/terminology-0/document-base-url.html",
  "html/infrastructure/urls/terminology-0/multiple-base.sub.html",
  "html/semantics/document-metadata/the-base-element/base-data.html",
  "html/semantics/document-metadata/the-base-element/base-javascript.html",
  "html/semantics/document-metadata/the-base-element/base_about_blank.html",
  "html/semantics/document-metadata/the-base-element/base_href_empty.html",
  "html/semantics/document-metadata/the-base-element/base_href_invalid.html",
  "html/semantics/document-metadata/the-base-element/base_href_specified.html",
  "html/semantics/document-metadata/the-base-element/base_href_unspecified.html",
  "html/semantics/document-metadata/the-base-element/base_srcdoc.html",
  "html/semantics/forms/attributes-common-to-form-controls/formAction_document_address.html",
  "html/semantics/forms/attributes-common-to-form-controls/formaction.html",
  "html/semantics/forms/the-form-element/form-action-reflection.html",
  "html/semantics/forms/the-form-element/form-action-reflection-with-base-url.html",
  "html/semantics/links/links-created-by-a-and-area-elements/htmlanchorelement_attribute-getter-setter.html",
  "html/semantics/links/links-created-by-a-and-area-elements/htmlanchorelement_getter.html",
  "html/semantics/links/links-created-by-a-and-area-elements/non-parsable-url-getter-setter.window.js",
  "html/semantics/links/links-created-by-a-and-area-elements/non-special-opaque-path-url-getter-setter.window.js",
  "html/semantics/links/links-created-by-a-and-area-elements/non-special-url-getter-setter.window.js",
  "url/a-element.html",
  "url/a-element-origin.html",
  "url/a-element-xhtml.xhtml",
  "url/a-element-origin-xhtml.xhtml",
  "url/percent-encoding.window.js",
  "url/toascii.window.js",
  "url/url-setters-a-area.window.js",
];

/**
 * Every file vendored for the runner, by WPT path: the tests, and what they
 * load. The runner does not serve wpt's `resources/testharnessreport.js`: it
 * answers that path with its own reporter, as jsdom's WPT runner does, so
 * that file is not vendored. The `.py` handlers are vendored as the record of
 * what the server's TypeScript handlers (test/wpt/server.ts) reproduce; they
 * are never run or served.
 *
 * @example
 * ```ts
 * runnerFiles.includes("resources/testharness.js"); // true
 * ```
 */
export const runnerFiles: readonly string[] = [
  ...runnerTests,
  "resources/testharness.js",
  "common/blank.html",
  "common/get-host-info.sub.js",
  "common/subset-tests-by-key.js",
  "url/resources/a-element.js",
  "url/resources/a-element-origin.js",
  "url/resources/percent-encoding.py",
];
