/**
 * The live service's answers captured by others (`test/fixtures/captured/`, each with its
 * source in that folder's SOURCES.md), read as text or as JSON.
 */
import { readFileSync } from 'node:fs';

/** The captured answer's bytes, as the service sent them (modulo the trims SOURCES.md names). */
export const capturedText = (name: string): string =>
  readFileSync(new URL(`../fixtures/captured/${name}`, import.meta.url), 'utf8');

/** The captured answer parsed (plain `JSON.parse`: the fixture, not our reader). */
export const captured = <T = unknown>(name: string): T => JSON.parse(capturedText(name)) as T;

/** Every captured answer, by file name: each one must be named in SOURCES.md and used by a test. */
export const CAPTURED_FILES = [
  'classroom.json',
  'cloud-lines.json',
  'cloud-logs.json',
  'comment-reply.json',
  'health.json',
  'login-2019.json',
  'login-refused.json',
  'message-fields.json',
  'messages-count.json',
  'news.json',
  'project.json',
  'session.json',
  'site-api-user.json',
  'statistics-daily.json',
  'statistics-monthly-ga.json',
  'studio.json',
  'user-projects.json',
  'user.json',
] as const;
