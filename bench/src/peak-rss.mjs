import { readFileSync } from "node:fs";

/** This process's peak resident set size in MB: VmHWM from /proc, else the kernel's maxRSS. */
export function peakRssMb() {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS / 1024;
}
