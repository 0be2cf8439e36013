import { readFileSync } from 'node:fs';

/**
 * CPU time of whole processes (user + system, from /proc, Linux only) while a load runs, so the
 * report can say where a request's CPU goes: the serverless-offline process (HTTP layer and the
 * handler, in one process), DynamoDB Local, and this process (the load generator or the raw calls).
 * On these 2-core machines they compete for the same cores, which caps every HTTP rate.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds per request of each named process during `work`, which returns its request count. */
export async function cpuPerRequest<T>(
  pids: Record<string, number | undefined>,
  work: () => Promise<{ result: T; requests: number }>,
): Promise<{ result: T; cpuMsPerRequest: Record<string, number | undefined> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMsOf(pid)]));
  const { result, requests } = await work();
  const cpuMsPerRequest = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const [start, end] = [before[name], cpuMsOf(pid)];
      return [
        name,
        start === undefined || end === undefined || requests === 0 ? undefined : (end - start) / requests,
      ];
    }),
  );
  return { result, cpuMsPerRequest };
}
