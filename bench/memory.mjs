// Memory of a process and everything it started, from /proc (Linux). PSS (proportional set size,
// /proc/<pid>/smaps_rollup) is the fair sum over several processes: a page shared by n processes
// (the node binary, PostgreSQL's shared buffers, libraries) counts 1/n in each, so the sum is what
// the tree really occupies. RSS summed counts shared pages once per process and overstates it.
import { readdirSync, readFileSync } from 'node:fs';

/** @param {number} pid @returns {number | undefined} the parent's pid, or undefined once gone */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** @param {number} rootPid @returns {number[]} the process and all its descendants */
export function processTree(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === undefined) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(Number(entry));
  }
  const tree = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = /** @type {number} */ (pending.pop());
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** @param {number} pid */
function describe(pid) {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const app = command.map((part) => part.match(/apps\/([^/]+)\/dist\/main\.js$/)?.[1]).find(Boolean);
    if (app) return app;
    if (command.some((part) => part.endsWith('stack-launcher.mjs'))) return 'launcher';
    if (command[0]?.startsWith('postgres')) return command.join(' ').replace(/\s+/g, ' ').slice(0, 40);
    if (command[0]?.endsWith('/postgres')) return 'postgres';
    return command.slice(0, 2).join(' ').slice(-40);
  } catch {
    return '?';
  }
}

/**
 * @typedef {object} TreeMemory
 * @property {number} pss bytes, summed over the tree
 * @property {number} rss bytes, summed over the tree (shared pages counted in every process)
 * @property {{ pid: number, name: string, pss: number, rss: number }[]} processes
 */

/** @param {number} rootPid @returns {TreeMemory} */
export function treeMemory(rootPid) {
  const processes = [];
  for (const pid of processTree(rootPid)) {
    let rollup;
    try {
      rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const kibibytes = (field) =>
      Number(rollup.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024;
    processes.push({ pid, name: describe(pid), pss: kibibytes('Pss'), rss: kibibytes('Rss') });
  }
  return {
    pss: processes.reduce((sum, process) => sum + process.pss, 0),
    rss: processes.reduce((sum, process) => sum + process.rss, 0),
    processes,
  };
}
