/**
 * The columns of classes and backpack items (WIRE.md §12.2-12.3). A class's sign-up token is left
 * out: whoever reads it can join the class.
 */
import { cell, countColumn, date, idAndTitle, userColumn } from './cells.js';
import type { Cell, Column } from './column.js';
import type { RecordOfKind } from './detect.js';

const classPath = (id: number): string => `/classes/${id}/`;
const yesNo = (v: Cell): string => (v === true ? 'closed' : v === false ? 'open' : '');

export const CLASS_AND_BACKPACK_COLUMNS: {
  readonly classroom: ReadonlyArray<Column<RecordOfKind['classroom']>>;
  readonly classroomRow: ReadonlyArray<Column<RecordOfKind['classroomRow']>>;
  readonly backpackItem: ReadonlyArray<Column<RecordOfKind['backpackItem']>>;
} = {
  classroom: [
    ...idAndTitle<RecordOfKind['classroom']>(classPath),
    userColumn('educator', 90, (c) => c.educator.username),
    { key: 'workingOn', header: 'working on', priority: 50, maxWidth: 36, get: (c) => cell(c.status) },
    { key: 'started', header: 'started', minWidth: 10, priority: 40, get: (c) => date(c.date_start) },
    { key: 'state', header: 'state', priority: 60, get: (c) => cell(c.closed), format: yesNo },
  ],
  classroomRow: [
    ...idAndTitle<RecordOfKind['classroomRow']>(classPath, { id: (c) => c.pk, title: (c) => c.fields.title }),
    countColumn('students', 70, (c) => c.fields.student_count),
    {
      key: 'created',
      header: 'created',
      minWidth: 10,
      priority: 60,
      get: (c) => date(c.fields.datetime_created),
    },
  ],
  backpackItem: [
    { key: 'name', header: 'name', priority: 100, maxWidth: 30, minWidth: 10, get: (b) => cell(b.name) },
    { key: 'type', header: 'type', priority: 90, get: (b) => cell(b.type) },
    { key: 'mime', header: 'mime', priority: 50, maxWidth: 20, get: (b) => cell(b.mime) },
    { key: 'file', header: 'file', priority: 40, maxWidth: 40, get: (b) => cell(b.body) },
    { key: 'id', header: 'id', priority: 20, maxWidth: 36, get: (b) => cell(b.id) },
  ],
};
