/**
 * Trusted Types: where the page enforces them (`require-trusted-types-for 'script'`), a worker's
 * script URL must come from a named policy. Ours, `warpscope-worker` (named in the CSP's
 * `trusted-types` directive), accepts only scripts of this origin.
 */
export const WORKER_POLICY = 'warpscope-worker';

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}
interface PolicyFactory {
  createPolicy(name: string, rules: { createScriptURL: (url: string) => string }): ScriptUrlPolicy;
}

let policy: ScriptUrlPolicy | null | undefined;

function workerPolicy(): ScriptUrlPolicy | null {
  if (policy !== undefined) return policy;
  const factory = (globalThis as { trustedTypes?: PolicyFactory }).trustedTypes;
  policy = null;
  if (!factory) return policy;
  try {
    policy = factory.createPolicy(WORKER_POLICY, {
      createScriptURL: (url) => {
        const resolved = new URL(url, location.href);
        if (resolved.origin !== location.origin) throw new TypeError(`Refusing to start a worker from another origin: ${resolved.origin}`);
        return resolved.href;
      },
    });
  } catch {
    // The page's CSP does not allow this policy name: the Worker constructor says so when used.
  }
  return policy;
}

/** The URL to pass to `new Worker`: a TrustedScriptURL where Trusted Types exist, else the string. */
export function workerScriptUrl(url: string): string {
  const p = workerPolicy();
  // The Worker constructor takes a TrustedScriptURL wherever it takes a string.
  return p ? (p.createScriptURL(url) as string) : url;
}
