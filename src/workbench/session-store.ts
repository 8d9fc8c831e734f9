/**
 * Saving and resuming a login: the cookie jar is written to a file of mode 0600; the password
 * never is. Resuming reads the jar back and asks the site who it belongs to.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CookieJar } from 'tough-cookie';
import type { Hosts } from '../hosts.js';
import { Session, type SessionOptions } from '../session.js';

interface SavedSession {
  version: 1;
  site: string;
  username: string | null;
  jar: unknown;
}

/** Writes the session's jar to `file` (mode 0600, atomically). */
export async function saveSession(session: Session, file: string): Promise<void> {
  const saved: SavedSession = {
    version: 1,
    site: session.hosts.site,
    username: session.username,
    jar: await session.jar.serialize(),
  };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(saved)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600); // the umask may have widened nothing, but an old file may exist
  await rename(temporary, file);
}

/**
 * Restores a saved session and checks it with the site. Answers `null` when there is no file,
 * the file is for another site, or the login has expired.
 */
export async function resumeSession(file: string, options: SessionOptions = {}): Promise<Session | null> {
  let saved: SavedSession;
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as SavedSession;
  } catch {
    return null;
  }
  if (saved?.version !== 1 || !saved.jar) return null;
  const hosts: Partial<Hosts> | undefined = options.hosts;
  const session = new Session({ ...options, jar: await CookieJar.deserialize(saved.jar as string) });
  if (session.hosts.site !== saved.site && hosts?.site === undefined) return null;
  await session.refreshSession();
  return session.loggedIn ? session : null;
}
