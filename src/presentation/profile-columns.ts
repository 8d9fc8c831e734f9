/** The columns of a profile's totals and of the projects a user loves (`users.totals`, `users.loves`). */
import { cell, countColumn, idAndTitle, userColumn } from './cells.js';
import type { Cell, Column } from './column.js';
import type { RecordOfKind } from './detect.js';

const badge = (v: Cell): string => (v === true ? 'member' : v === false ? 'no' : '');

export const PROFILE_COLUMNS: {
  readonly profileTotals: ReadonlyArray<Column<RecordOfKind['profileTotals']>>;
  readonly lovedProject: ReadonlyArray<Column<RecordOfKind['lovedProject']>>;
  readonly userRank: ReadonlyArray<Column<RecordOfKind['userRank']>>;
  readonly teamMember: ReadonlyArray<Column<RecordOfKind['teamMember']>>;
} = {
  profileTotals: [
    userColumn('username', 100, (t) => t.username),
    countColumn('followers', 90, (t) => t.followers),
    countColumn('following', 80, (t) => t.following),
    countColumn('projects', 85, (t) => t.projects),
    countColumn('studios', 70, (t) => t.studios),
    countColumn('favorites', 60, (t) => t.favorites),
    countColumn('loves', 60, (t) => t.loves),
  ],
  lovedProject: [
    ...idAndTitle<RecordOfKind['lovedProject']>((id) => `/projects/${id}/`),
    userColumn('author', 80, (p) => p.author),
  ],
  userRank: [
    userColumn('username', 100, (r) => r.username),
    { key: 'rank', header: 'rank', priority: 90, get: (r) => cell(r.rank) },
    { key: 'membership', header: 'membership', priority: 50, get: (r) => cell(r.membership), format: badge },
  ],
  teamMember: [
    userColumn('username', 100, (m) => m.username),
    { key: 'name', header: 'name', priority: 90, get: (m) => cell(m.name) },
    { key: 'id', header: 'id', align: 'right', priority: 50, get: (m) => cell(m.id) },
  ],
};
