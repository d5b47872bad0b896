/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { graphqlDocumentModules } from './build/graphqlDocuments'
import { featureScreenModules, landingPreload } from './build/landingPreload'
import { precompress } from './build/precompress'
import { sharedScreenCode } from './build/sharedChunk'

// The landing page's screen module: the shared code it does not use is kept out of the chunk it loads.
const landingScreen = featureScreenModules(fileURLToPath(new URL('./src/features', import.meta.url))).find(
  (route) => route.path === '/',
)?.module

export default defineConfig({
  plugins: [react(), graphqlDocumentModules(), landingPreload(), precompress()],
  // The route table (config/routes.json) lives beside the tenants, outside the front end's folder.
  server: { fs: { allow: ['.', '../config'] } },
  build: {
    // React, react-router and Apollo Client alone make a 520 kB entry; the budget that matters is gzip against the
    // empty shell, checked by `npm run bench:size`.
    chunkSizeWarningLimit: 600,
    rollupOptions: { output: { manualChunks: sharedScreenCode(landingScreen) } },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
  },
})
