/**
 * The renderer's Content-Security-Policy, the same from the Electron shell's app:// scheme and
 * the browser host: only its own scripts, styles and images, no inline script, no eval, no
 * network but its own origin (IPC in the shell, the host's /api), no frames, no forms.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
