/**
 * Process accounting from Linux /proc: CPU time (utime + stime of every thread
 * of the process, in clock ticks) and resident memory. This is what the OS
 * charged the workerd process, so it includes the runtime's own work (HTTP
 * parsing, I/O threads, GC), not just the Worker's JavaScript. Elsewhere than
 * Linux these return null and the report says "n/a".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export const supported = existsSync('/proc/self/stat');

let tickMs = null;
/** Milliseconds per clock tick (USER_HZ, almost always 100 → 10 ms). */
export function msPerTick() {
  if (tickMs === null) {
    let hz = 100;
    try {
      hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      // getconf missing: keep the Linux default.
    }
    tickMs = 1000 / hz;
  }
  return tickMs;
}

/** Fields of /proc/<pid>/stat after the parenthesised command name (which may contain spaces). */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = text.lastIndexOf(')');
  return { comm: text.slice(text.indexOf('(') + 1, close), rest: text.slice(close + 2).split(' ') };
}

/** CPU time of a process in ms (user + system, all threads), or null. */
export function cpuMs(pid) {
  if (!supported || !pid) return null;
  try {
    const { rest } = statFields(pid);
    // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(rest[11]) + Number(rest[12])) * msPerTick();
  } catch {
    return null;
  }
}

/** Whether a process is still running (not gone, not a zombie). */
export function alive(pid) {
  if (!supported || !pid) return true;
  try {
    return statFields(pid).rest[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Resident set size in MiB, or null. */
export function rssMiB(pid) {
  if (!supported || !pid) return null;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Pids of the direct children of `parent` whose command is `comm`. */
export function childPids(parent = process.pid, comm = 'workerd') {
  if (!supported) return [];
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = statFields(entry);
      if (f.comm === comm && Number(f.rest[1]) === parent) out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Samples RSS of `pid` every `everyMs` until stop(); returns min, peak, last and the series. */
export function sampleRss(pid, everyMs = 100) {
  const series = [];
  const take = () => {
    const v = rssMiB(pid);
    if (v !== null) series.push([Date.now(), v]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const values = series.map(([, v]) => v);
      return values.length
        ? {
            first: values[0],
            min: Math.min(...values),
            peak: Math.max(...values),
            last: values[values.length - 1],
            samples: values.length,
          }
        : null;
    },
  };
}

/** CPU ms of a process across an async section. */
export async function measureCpu(pid, section) {
  const before = cpuMs(pid);
  const value = await section();
  const after = cpuMs(pid);
  return { value, cpuMs: before === null || after === null ? null : after - before };
}
