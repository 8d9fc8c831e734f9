/**
 * The entry of the type-check worker (./type-checker.ts): tslab's converter gets plain programs
 * (./plain-program.ts) before anything loads it, then the loop (./type-check-loop.ts) starts.
 */
import { usePlainPrograms } from './plain-program.js';

usePlainPrograms();
await import('./type-check-loop.js');
