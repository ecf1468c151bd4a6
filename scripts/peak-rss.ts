// Peak memory and CPU time of this process and every process below it, as the build benchmarks
// measure them (bench:build, bench:real): a build runs its content check here and Astro, Pagefind
// and the check processes as children.
import fs from 'node:fs';

/**
 * Peak RSS (MB) of this process (which checks the content) and every process below it, sampled every
 * 50 ms while `run` is pending, and the CPU seconds they spent on it: this process's own (less the
 * sampling) and the most each process below it was seen to have used since the start (a process
 * that ends loses at most its last 50 ms; the sandbox does not hand its children's times back to
 * us). CPU time barely moves when other programs load the machine; wall time does.
 */
export async function withPeakRss<T>(run: () => Promise<T>): Promise<{ value: T; peakMb: number; cpuS: number }> {
  const pageKb = 4;
  const ticksPerS = 100; // USER_HZ, which Linux fixes at 100 for /proc
  let peak = 0;
  /** CPU ticks of each process below this one: at the start (processes already running), and the most seen. */
  const ticks = new Map<number, { start: number; max: number }>();
  const sample = (first: boolean) => {
    const parents = new Map<number, number>();
    const rss = new Map<number, number>();
    const cpu = new Map<number, number>();
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(Number(pid), Number(fields[1]));
        rss.set(Number(pid), Number(fields[21]) * pageKb);
        cpu.set(Number(pid), Number(fields[11]) + Number(fields[12]));
      } catch {
        // the process ended while we looked
      }
    }
    const isDescendant = (pid: number): boolean => {
      for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
      return false;
    };
    let total = 0;
    for (const [pid, kb] of rss) {
      if (pid !== process.pid && !isDescendant(pid)) continue;
      total += kb;
      if (pid === process.pid) continue;
      const now = cpu.get(pid)!;
      const known = ticks.get(pid);
      if (known) known.max = Math.max(known.max, now);
      else ticks.set(pid, { start: first ? now : 0, max: now });
    }
    peak = Math.max(peak, total / 1024);
  };
  let samplingUs = 0;
  const timed = (first = false) => {
    const before = process.cpuUsage();
    sample(first);
    const spent = process.cpuUsage(before);
    samplingUs += spent.user + spent.system;
  };
  const ownBefore = process.cpuUsage();
  timed(true);
  const timer = setInterval(timed, 50);
  try {
    const value = await run();
    clearInterval(timer);
    timed();
    const own = process.cpuUsage(ownBefore);
    let below = 0;
    for (const { start, max } of ticks.values()) below += max - start;
    const cpuS = below / ticksPerS + Math.max(0, own.user + own.system - samplingUs) / 1e6;
    return { value, peakMb: peak, cpuS };
  } finally {
    clearInterval(timer);
  }
}
