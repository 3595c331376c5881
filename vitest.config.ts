import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Timings stay out of the test suite: benchmarks live in bench/.
    testTimeout: 60_000,
    pool: "threads",
  },
});
