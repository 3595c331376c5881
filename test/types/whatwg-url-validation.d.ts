// whatwg-url exports parseURLWithValidationErrors (index.js), which
// @types/whatwg-url does not declare yet.
import "whatwg-url";

declare module "whatwg-url" {
  function parseURLWithValidationErrors(
    input: string,
    options?: { baseURL?: URLRecord | null; encoding?: string },
  ): { url: URLRecord | null; validationErrors: string[] };
}
