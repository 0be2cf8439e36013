import { LocalStackError } from './dynamodb-local.ts';
import { isPortFree } from './ports.ts';

interface NeededPort {
  port: number;
  /** What the port is, for the message. */
  label: string;
  /** The environment variable that moves it. */
  setting: string;
}

/** Fails, naming the setting to change, when any port the local stack needs is taken. */
export async function assertPortsFree(ports: NeededPort[]): Promise<void> {
  for (const { port, label, setting } of ports) {
    if (await isPortFree(port)) continue;
    throw new LocalStackError(
      `Port ${port} (${label}) is already in use. Is another \`npm start\` running?\n` +
        `Stop whatever listens there, or choose another port with ${setting}=<port>.`,
    );
  }
}
