import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The Vitest fixture project of test/jsdom-setup is run by its own test, with its own config.
    exclude: ["test/fixtures/**", "**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // Timings stay out of the test suite: benchmarks live in bench/.
    testTimeout: 60_000,
    pool: "threads",
  },
});
