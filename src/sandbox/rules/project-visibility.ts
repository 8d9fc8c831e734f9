/**
 * Who may see a project in the sandbox: anyone once it is shared, only its owner before. The one
 * rule behind the REST reads (an unseen project is a 404) and the cloud (an unseen project's
 * variables cannot be joined and its log reads as empty).
 */
import type { ProjectRow } from '../state/store.js';

/** True when the user with id `viewerId` (undefined: logged out) may see `row`. */
export function canSeeProject(row: ProjectRow, viewerId: number | undefined): boolean {
  return row.shared !== null || (viewerId !== undefined && row.ownerId === viewerId);
}
