/**
 * The Content-Security-Policy the app ships, in one place for the build (`vite.config.ts`: a meta
 * tag and `vite preview`'s headers) and the classroom server (`server/`), which serves the same
 * build. Only this origin's scripts, workers, images and connections (the classroom's WebSocket
 * is this origin too: the server that serves the app serves it); no inline scripts, no plugins,
 * no framing restrictions (lessons are embedded in course pages); Trusted Types enforced, with one
 * policy for the simulator worker's and the service worker's URLs. Styles also allow
 * 'unsafe-inline': the lab editor (CodeMirror 6) writes its theme into <style> elements and sizes
 * its gutters with style attributes at run time, and a static site has no per-response nonce to
 * give it. Images also allow data: URLs, for the export's PNG.
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
