// Installed by vitest.config.ts for the `gpu` project, before any file runs (see dawnPolling.ts).
import { pollDawnGently } from './dawnPolling.ts';

pollDawnGently();
