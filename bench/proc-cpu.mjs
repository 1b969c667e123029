// CPU time from /proc (Linux): of a process, of a process and everything under it, of a process's
// threads by name, and of the whole machine. Figures in clock ticks (USER_HZ) turned into ms.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** USER_HZ: what /proc counts CPU time in (100 on every common Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
const MS_PER_TICK = 1000 / TICKS_PER_SECOND;

/**
 * One /proc/<pid>/stat (or a task's): its parent, name and CPU in ms; undefined once it is gone.
 * `children` is the CPU of its children that ended and were waited for (a PostgreSQL backend that
 * closed counts in its postmaster's).
 * @param {string} file
 * @returns {{ ppid: number, name: string, own: number, children: number } | undefined}
 */
function statOf(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // The name is in parentheses and may hold spaces and parentheses itself: the fields follow the last.
  const close = text.lastIndexOf(')');
  const name = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // Fields 4 (ppid) and 14–17 (utime, stime, cutime, cstime) of proc(5), counted from field 3 here.
  const tick = (index) => Number(fields[index]) * MS_PER_TICK;
  return {
    ppid: Number(fields[1]),
    name,
    own: tick(11) + tick(12),
    children: tick(13) + tick(14),
  };
}

/** CPU of one process (all its threads), in ms; NaN once it is gone. @param {number} pid */
export function processCpuMs(pid) {
  return statOf(`/proc/${pid}/stat`)?.own ?? Number.NaN;
}

/**
 * CPU of a process and of every process under it, in ms, those that ended and were waited for
 * included; by pid, so that a window's figure is the difference of two readings.
 * @param {number} rootPid
 * @returns {Map<number, number>}
 */
export function treeCpuMs(rootPid) {
  /** @type {Map<number, { ppid: number, cpu: number }>} */
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(`/proc/${entry}/stat`);
    if (stat) all.set(Number(entry), { ppid: stat.ppid, cpu: stat.own + stat.children });
  }
  /** @type {Map<number, number[]>} */
  const childrenOf = new Map();
  for (const [pid, { ppid }] of all) childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), pid]);
  const tree = new Map();
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = /** @type {number} */ (pending.pop());
    const found = all.get(pid);
    if (!found) continue;
    tree.set(pid, found.cpu);
    pending.push(...(childrenOf.get(pid) ?? []));
  }
  return tree;
}

/**
 * What a tree used between two readings (treeCpuMs). A process that ended in between counts in its
 * parent's children's CPU with all it ever used, so what it had used by the first reading comes off
 * again: the difference of the two sums. A process new in the second counts whole.
 * @param {Map<number, number>} before @param {Map<number, number>} after
 */
export function treeDeltaMs(before, after) {
  let sum = 0;
  for (const cpu of after.values()) sum += cpu;
  for (const cpu of before.values()) sum -= cpu;
  return sum;
}

/**
 * CPU of a process's threads by thread name (Node 24: MainThread, V8Worker for the garbage
 * collector's helpers and compilation, libuv-worker for the thread pool's work such as asynchronous
 * brotli), by thread id so that readings can be subtracted.
 * @param {number} pid
 * @returns {Map<number, { name: string, cpu: number }>}
 */
export function threadCpuMs(pid) {
  const threads = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    const stat = statOf(`/proc/${pid}/task/${tid}/stat`);
    // The main thread by its id (Node 20 names every thread `node`).
    if (stat)
      threads.set(Number(tid), { name: Number(tid) === pid ? 'MainThread' : stat.name, cpu: stat.own });
  }
  return threads;
}

/**
 * What each thread name used between two readings (threadCpuMs), in ms.
 * @param {Map<number, { name: string, cpu: number }>} before
 * @param {Map<number, { name: string, cpu: number }>} after
 * @returns {Record<string, number>}
 */
export function threadDeltaMs(before, after) {
  /** @type {Record<string, number>} */
  const byName = {};
  for (const [tid, { name, cpu }] of after) {
    byName[name] = (byName[name] ?? 0) + cpu - (before.get(tid)?.cpu ?? 0);
  }
  return byName;
}

/**
 * The machine's CPU from /proc/stat, in ms summed over all cores: busy (user, nice, system, irq,
 * softirq; not idle, iowait or steal) and the number of cores.
 * @returns {{ busy: number, cores: number }}
 */
export function machineCpuMs() {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const [user, nice, system, , , irq, softirq] = lines[0].trim().split(/\s+/).slice(1).map(Number);
  const cores = lines.filter((line) => /^cpu\d+ /.test(line)).length;
  return { busy: (user + nice + system + irq + softirq) * MS_PER_TICK, cores };
}

/** The 1-minute load average. */
export function loadAverage1m() {
  return loadavg()[0];
}

/**
 * Others on the machine used more than this share of one core during a measurement: the machine was
 * busy, and the figure is not judged against its budget. Meant to sit above what a machine with
 * nothing else running spends on its own (kernel threads, agents) and far below one more test run
 * (2026-11-26: 58–169 % while other sessions' tests ran, 1–7 % in the lulls between them).
 */
export const BUSY_SHARE_OF_A_CORE = 0.15;

/**
 * The machine during a measurement, from two readings ({ at: performance.now(), machine:
 * machineCpuMs().busy, ours: treeCpuMs(process.pid) }): its 1-minute load average at the end, and
 * the share of one core that processes other than the bench's own used (the machine's busy CPU less
 * the bench's process tree, which holds the servers, PostgreSQL and the browsers it starts).
 * @param {{ at: number, machine: number, ours: Map<number, number> }} before
 * @param {{ at: number, machine: number, ours: Map<number, number> }} after
 */
export function machineStateBetween(before, after) {
  const elapsedMs = after.at - before.at;
  const othersMs = after.machine - before.machine - treeDeltaMs(before.ours, after.ours);
  const othersShareOfACore = Math.max(0, othersMs / elapsedMs);
  return {
    loadAverage1m: loadAverage1m(),
    othersShareOfACore,
    isBusy: othersShareOfACore > BUSY_SHARE_OF_A_CORE,
  };
}

/** A reading of the machine and of the bench's own process tree, for machineStateBetween. */
export function machineReading() {
  return { at: performance.now(), machine: machineCpuMs().busy, ours: treeCpuMs(process.pid) };
}
