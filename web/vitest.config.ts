// The unit tests of the front end (web/test/*.test.ts) under Vitest: state
// and view functions, run in Node without a browser. The browser tests are
// Playwright's (e2e/), never picked up here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
  },
});
