import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

export type WriteFileAtomicOptions = {
  /** File mode of the result; applied to the temporary file before any byte is written. */
  mode?: number;
  /**
   * Runs after the temporary file is complete and flushed, before it replaces the target.
   * Tests use it to simulate a crash at the one moment where both files exist.
   */
  beforeRename?: () => void;
};

/**
 * Replaces `path` with `data` so that a crash at any point leaves either the old file or the
 * new one, never a torn mix: write a temporary file beside it, fsync it, rename it over the
 * target (atomic on POSIX file systems), then fsync the directory so the rename itself
 * survives a power loss.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): void {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temporary, "wx", mode);
  let renamed = false;
  try {
    // The creation mode is filtered by the umask; set it exactly.
    fchmodSync(fd, mode);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    options.beforeRename?.();
    renameSync(temporary, path);
    renamed = true;
    syncDirectory(dir);
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      try {
        unlinkSync(temporary);
      } catch {
        // never created or already gone
      }
    }
  }
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
