/**
 * Replacing a file so that a crash leaves either the old or the new one, never a mix, and so
 * that nothing planted in the folder beforehand can redirect the write.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` (text is written as UTF-8) to a fresh temporary file next to `path` (random name, opened with O_EXCL, so
 * an existing file or symlink there makes it fail instead of being followed), syncs it, and
 * renames it over `path` (which replaces a symlink at `path` rather than writing through it).
 * With `mode`, the file gets exactly those bits whatever the umask; without, `0666 & ~umask`.
 * The caller syncs the folder afterwards if the rename itself must survive a power loss.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    try {
      // open() applies the umask; the asked-for bits are put back exactly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
