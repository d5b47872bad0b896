// The empty-shell build the bundle-size benchmark measures the app against (scripts/bundle-size.mjs).
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

export default defineConfig({
  root: fileURLToPath(new URL('./baseline-shell', import.meta.url)),
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../node_modules/.bench/baseline-shell', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
  },
})
