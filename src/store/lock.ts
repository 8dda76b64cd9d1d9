import fs from 'node:fs';
import path from 'node:path';

export class StoreLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two processes must never open one PGlite folder: the second would corrupt it. The lock
 * file holds the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'sightline.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new StoreLockedError(
          `The data folder ${path.resolve(dir)} is in use by another Sightline process (pid ${owner}). ` +
            'Stop it first, or set DATA_DIR to another folder, or use DATABASE_URL to share a PostgreSQL server.',
        );
      }
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new StoreLockedError(`Could not take the lock on ${path.resolve(dir)}`);
}
