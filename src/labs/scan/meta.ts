/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { linearSpec } from '../lab.ts';

export const scanMeta = {
  id: 'scan',
  courseOrder: 3,
  title: 'Prefix sum (scan)',
  summary:
    'Every element becomes the sum of those before it: Hillis–Steele’s log-step network against Blelloch’s work-efficient up-sweep and down-sweep, conflict-free padding, warp scans and a single-pass scan.',
  params: linearSpec([64, 256, 512, 1000, 1024, 4096], 'u32'),
  variantCount: 7,
} as const;
