/**
 * Which links `docbase check --external` asks about: http: and https:
 * URLs outside the site root.
 *
 * @module
 */

/**
 * Whether a resolved URL is a link to check outside the site: http: or
 * https:, and not under the site root.
 *
 * @example
 * ```ts
 * isExternalURL("https://example.org/", "https://example.com/"); // true
 * isExternalURL("https://example.com/a.html", "https://example.com/"); // false
 * isExternalURL("mailto:a@example.com", null); // false
 * ```
 */
export function isExternalURL(url: string, root: string | null): boolean {
  if (!url.startsWith("http:") && !url.startsWith("https:")) return false;
  return root === null || !url.startsWith(root);
}
