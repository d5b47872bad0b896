// The browser journeys (npm run e2e): Vitest runs them in Node, each driving Debian's Chromium through playwright-core
// against a running stack (E2E_GATEWAY). scripts/e2e starts a scratch stack, runs them and stops it.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    environment: 'node',
    include: ['**/*.e2e.ts'],
    // One browser at a time: the machine has two cores and the stack runs beside the tests.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
