// Whether a pid names a live process: signal 0 probes without signalling.
// EPERM means it exists but belongs to someone else — alive.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
