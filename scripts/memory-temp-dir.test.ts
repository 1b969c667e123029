import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUsableMemoryFolder, removeFoldersOfEndedRuns } from './memory-temp-dir.mjs';

const GiB = 1024 ** 3;
const mounts = (shm: string) =>
  `/dev/vda / ext4 rw,relatime 0 0\n${shm}\nproc /proc proc rw,nosuid,nodev,noexec 0 0\n`;

describe('the folder npm test keeps its temporary files in', () => {
  it.each([
    ['a tmpfs with room: used', 'tmpfs /dev/shm tmpfs rw,relatime,size=24684084k 0 0', 22 * GiB, true],
    [
      'a tmpfs too small (a container’s 64 MiB): not used',
      'shm /dev/shm tmpfs rw,nosuid,nodev,size=65536k 0 0',
      0.06 * GiB,
      false,
    ],
    [
      'a tmpfs that runs no program: not used',
      'shm /dev/shm tmpfs rw,nosuid,nodev,noexec 0 0',
      22 * GiB,
      false,
    ],
    ['a disk: not used', '/dev/vdb /dev/shm ext4 rw,relatime 0 0', 22 * GiB, false],
    ['no /dev/shm at all: not used', '', 22 * GiB, false],
  ])('/dev/shm as %s', (_case, line, free, usable) => {
    expect(isUsableMemoryFolder(mounts(line), free)).toBe(usable);
  });
});

it('removes the folders of runs that have ended, and nothing else', () => {
  const parent = mkdtempSync(join(tmpdir(), 'memory-temp-dir-'));
  try {
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(join(parent, `concierge-test-${ended}-a1b2c3`));
    writeFileSync(join(parent, `concierge-test-${ended}-a1b2c3`, 'PG_VERSION'), '17');
    mkdirSync(join(parent, `concierge-test-${process.pid}-d4e5f6`));
    mkdirSync(join(parent, 'PostgreSQL.1951901864'));
    removeFoldersOfEndedRuns(parent);
    expect(readdirSync(parent).sort()).toEqual([
      'PostgreSQL.1951901864',
      `concierge-test-${process.pid}-d4e5f6`,
    ]);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
