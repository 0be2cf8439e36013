import { vi } from 'vitest';

/**
 * Runs `work` while keeping everything written to this process's stdout and stderr (where the
 * Exchange's logger prints), and returns it instead of printing it.
 */
export async function captureOutput<T>(work: () => Promise<T> | T): Promise<{ result: T; output: string }> {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
  for (const spy of spies) spy.mockImplementation(keep);
  try {
    const result = await work();
    return { result, output: chunks.join('') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
