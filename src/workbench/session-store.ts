/**
 * Saving and resuming a login: the cookie jar is written to a file of mode 0600 in a folder of
 * mode 0700; the password never is. Resuming reads the jar back and asks the site who it
 * belongs to. The file is a credential, so it is written through a fresh temporary file that
 * only this call can have created (never through a planted symlink), and a file that others
 * can read is refused rather than used.
 */
import { constants } from 'node:fs';
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { CookieJar } from 'tough-cookie';
import { writeFileAtomic } from '../atomic-write.js';
import type { Hosts } from '../http/hosts.js';
import { parseJson, stringifyJson } from '../records/json.js';
import { Session, type SessionOptions } from '../session.js';

interface SavedSession {
  version: 1;
  site: string;
  username: string | null;
  jar: unknown;
}

/** A saved session that must not be used as it is; the message says how to fix it. */
export class UnsafeSessionFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeSessionFileError';
  }
}

/**
 * Writes the session's jar to `file` (mode 0600, atomically). Its folder is created with mode
 * 0700, and tightened to 0700 when it is ours and others can enter it.
 */
export async function saveSession(session: Session, file: string): Promise<void> {
  const saved: SavedSession = {
    version: 1,
    site: session.hosts.site,
    username: session.username,
    jar: await session.jar.serialize(),
  };
  const folder = dirname(file);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await tightenFolder(folder);
  // A fresh temporary file opened with O_EXCL: nothing planted in the folder is followed.
  await writeFileAtomic(file, `${stringifyJson(saved, undefined, 'saved session')}\n`, 0o600);
}

/**
 * Restores a saved session and checks it with the site. Answers `null` when there is no file,
 * the file is for another site, or the login has expired.
 *
 * @throws UnsafeSessionFileError when the file is a symlink, is not this user's, or others can
 *   read or write it: the message gives the command that fixes it.
 */
export async function resumeSession(file: string, options: SessionOptions = {}): Promise<Session | null> {
  let text: string;
  try {
    text = await readPrivateFile(file);
  } catch (error) {
    if (error instanceof UnsafeSessionFileError) throw error;
    return null;
  }
  let saved: SavedSession;
  try {
    saved = parseJson(text) as SavedSession;
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

/** Reads the file only if it is a regular file of this user that no one else can read or write. */
async function readPrivateFile(file: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NONBLOCK: a named pipe planted there would otherwise block open() until a writer comes.
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new UnsafeSessionFileError(
        `the saved session ${file} is a symbolic link, which is not used; remove it (rm ${quote(file)}) and log in again`,
      );
    }
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UnsafeSessionFileError(`the saved session ${file} is not a regular file`);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) {
      throw new UnsafeSessionFileError(
        `the saved session ${file} belongs to another user (uid ${info.uid}) and is not used; ` +
          `remove it (rm ${quote(file)}) and log in again`,
      );
    }
    if (info.mode & 0o077) {
      throw new UnsafeSessionFileError(
        `the saved session ${file} can be read by others (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}) ` +
          `and is not used: it holds your login. Run chmod 600 ${quote(file)} if no one else had access, ` +
          'or remove it and log in again',
      );
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Sets a folder of ours that others may enter to 0700. Shared folders (sticky, like /tmp) and
 * the home folder itself are left as they are: the file's own mode protects it there.
 */
async function tightenFolder(folder: string): Promise<void> {
  if (resolve(folder) === resolve(homedir())) return;
  const info = await stat(folder);
  const uid = process.getuid?.();
  if (uid === undefined || info.uid !== uid || info.mode & 0o1000 || (info.mode & 0o077) === 0) return;
  await chmod(folder, 0o700);
}

function quote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
