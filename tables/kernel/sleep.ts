/** Resolves after `ms` milliseconds: the pause between two attempts of a retried write. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
