import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The Content-Security-Policy the app ships: only this origin's scripts, workers, images and
 * connections; no inline scripts, no plugins, no framing restrictions (lessons are embedded in
 * course pages); Trusted Types enforced, with one policy for the simulator worker's and the
 * service worker's URLs (src/workbench/trustedTypes.ts). Styles also allow 'unsafe-inline': the lab
 * editor (CodeMirror 6) writes its theme into <style> elements and sizes its gutters with style
 * attributes at run time, and a static site has no per-response nonce to give it. Scripts stay
 * strict. Images also allow data: URLs, for the export's PNG (src/ui/export).
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // data: for the export's PNG: the picture is drawn from an SVG built in memory (src/ui/export).
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types warpscope-worker',
].join('; ');

/**
 * Puts the CSP in the built index.html as a meta tag (for hosts that cannot set headers). Build
 * only: the dev server injects inline scripts and styles for hot updates, which the policy forbids.
 */
function cspMeta(): Plugin {
  return {
    name: 'warpscope-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

/**
 * Offline: a Workbox service worker precaches the whole build (the app, its lazy chunks, the
 * simulator worker, the shaders, which are bundled into the JavaScript with `?raw`, and the icons),
 * so after one visit every page, lab, lesson, simulation and GPU run works with the network off.
 * Registration is ours (src/workbench/offline.ts, through workbox-window and the Trusted Types policy):
 * no inline script. The runtime is inlined into sw.js, which is served under the same CSP, so it
 * needs no importScripts. A new version waits until the person asks for it (registerType prompt).
 * Off in the dev server.
 */
const pwa = () =>
  VitePWA({
    strategies: 'generateSW',
    registerType: 'prompt',
    injectRegister: null,
    manifest: {
      name: 'Warpscope',
      short_name: 'Warpscope',
      description: 'Learn GPU parallel programming: real WebGPU kernels replayed warp by warp.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#0b1020',
      theme_color: '#101828',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,wgsl,json,webmanifest}'],
      // The simulator worker and the lab chunks are large; none is a source map.
      maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      // Every address (/lab/reduce?…, /lesson/…) is the one-page app.
      navigateFallback: '/index.html',
      inlineWorkboxRuntime: true,
      cleanupOutdatedCaches: true,
      // The first version takes the open page at once; later ones wait for the Reload button.
      clientsClaim: true,
      skipWaiting: false,
      sourcemap: false,
    },
    devOptions: { enabled: false },
  });

export default defineConfig({
  plugins: [react(), cspMeta(), pwa()],
  server: { port: 5173, strictPort: false },
  // `vite preview` serves the build as a host should: with the policy as a header too.
  preview: { headers: { 'Content-Security-Policy': CSP } },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
