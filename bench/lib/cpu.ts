import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Linux clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat times. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ms: own CPU plus that of children already reaped. */
  cpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const number = (index: number) => Number(fields[index] ?? 0);
    // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    const ticks = number(11) + number(12) + number(13) + number(14);
    return { pid, ppid: number(1), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined; // exited meanwhile
  }
}

/**
 * CPU time used so far by `rootPid` and every live descendant (exited ones are in their parent's
 * cutime). Differences of two readings tell what one component cost during a run, whatever else
 * the machine was doing at the time: on a shared machine that is steadier than throughput.
 */
export function treeCpuMs(rootPid: number): number {
  const stats: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) stats.push(stat);
  }
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(stat);
    children.set(stat.ppid, siblings);
  }
  let total = 0;
  const pending = stats.filter((stat) => stat.pid === rootPid);
  while (pending.length > 0) {
    const stat = pending.pop();
    if (!stat) break;
    total += stat.cpuMs;
    pending.push(...(children.get(stat.pid) ?? []));
  }
  return total;
}

/** The postmaster's pid, from the first line of `postmaster.pid` in its data folder. */
export function postmasterPid(dataDir: string): number {
  const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster.pid in ${dataDir}`);
  return pid;
}

/** CPU of this process (the load generator), in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export interface CpuMeter {
  /** ms of CPU per component since the meter started. */
  read(): Record<string, number>;
}

/** Starts metering the named components: a pid's process tree, or this process ('self'). */
export function meterCpu(components: Record<string, number | 'self'>): CpuMeter {
  const sample = () =>
    Object.fromEntries(
      Object.entries(components).map(([name, pid]) => [
        name,
        pid === 'self' ? ownCpuMs() : treeCpuMs(pid),
      ]),
    );
  const start = sample();
  return {
    read: () => {
      const now = sample();
      return Object.fromEntries(
        Object.entries(now).map(([name, ms]) => [name, ms - (start[name] ?? 0)]),
      );
    },
  };
}
