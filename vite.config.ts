import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The Content-Security-Policy the app ships: only this origin's scripts, workers, images and
 * connections; no inline scripts, no plugins, no framing restrictions (lessons are embedded in
 * course pages); Trusted Types enforced, with one policy for the simulator worker's URL
 * (src/app/trustedTypes.ts). Styles also allow 'unsafe-inline': the lab editor (CodeMirror 6)
 * writes its theme into <style> elements and sizes its gutters with style attributes at run time,
 * and a static site has no per-response nonce to give it. Scripts stay strict.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
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

export default defineConfig({
  plugins: [react(), cspMeta()],
  server: { port: 5173, strictPort: false },
  // `vite preview` serves the build as a host should: with the policy as a header too.
  preview: { headers: { 'Content-Security-Policy': CSP } },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
