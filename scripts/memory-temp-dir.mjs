// Where `npm test` keeps its temporary files: in memory when the machine has room there. Its tests
// write a great deal there — PostgreSQL clusters, the container image's 220 MiB twice and its unpacked
// root, browser profiles — and on this machine's disk the kernel's share of that work was dear: 30 of
// the container image test's 46 CPU-seconds were system time, 7 of 23 in memory (docs/decisions.md,
// "Temporary files in memory").
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const SHM = '/dev/shm';
/** Three whole runs of `npm test` kept at most 746, 795 and 802 MiB there at once (read every 2 s). */
const ROOM_NEEDED_BYTES = 4 * 1024 ** 3;

/**
 * Whether a run may use `folder` for its temporary files, from /proc/mounts' text and the bytes free
 * there: a tmpfs with room, and programs may run from it (the image test starts its server from the
 * unpacked root, which a `noexec` mount, as Docker's /dev/shm is, refuses).
 * @param {string} mounts @param {number} freeBytes @param {string} [folder]
 */
export function isUsableMemoryFolder(mounts, freeBytes, folder = SHM) {
  const mount = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .find(([, point]) => point === folder);
  if (mount?.[2] !== 'tmpfs') return false;
  return !mount[3]?.split(',').includes('noexec') && freeBytes >= ROOM_NEEDED_BYTES;
}

const PREFIX = 'concierge-test-';

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Removes the run folders in `parent` whose run has ended (its process id runs no more): a run
 * stopped with Ctrl-C leaves its folder, and memory is not freed by a restart of the tests alone.
 * @param {string} [parent]
 */
export function removeFoldersOfEndedRuns(parent = SHM) {
  for (const name of readdirSync(parent)) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid && !isRunning(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/**
 * A fresh folder in /dev/shm for this run (named with its process id) when that is usable and the
 * caller set no TMPDIR of their own; undefined otherwise (the run then uses the system's temporary
 * folder). The folders of runs that ended without removing theirs go first.
 */
export function makeMemoryTempDir() {
  if (process.env.TMPDIR) return undefined;
  try {
    const { bavail, bsize } = statfsSync(SHM);
    if (!isUsableMemoryFolder(readFileSync('/proc/mounts', 'utf8'), bavail * bsize)) return undefined;
    removeFoldersOfEndedRuns();
    const folder = mkdtempSync(join(SHM, `${PREFIX}${process.pid}-`));
    // Others may pass through, not list: the embedded PostgreSQL runs as the postgres user when the
    // tests run as root, and must reach its data folder inside (as in the system's /tmp).
    chmodSync(folder, 0o711);
    return folder;
  } catch {
    return undefined;
  }
}
