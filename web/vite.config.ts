import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The dashboard: built by scripts/build.mjs into dist/web and served by the API process at `/`.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [preact()],
  base: '/',
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // No inline script or style: the Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
