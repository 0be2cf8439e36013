import * as z from 'zod';

/**
 * One container of a deployment string (`{"services":{"<name>":{...}}}`, upstream's
 * open-horizon/anax docs/deployment_string.md). Fields the agent does not use are kept but ignored, as upstream
 * ignores them; the ones it uses are typed strictly, so a bad deployment fails before any pull.
 */
const portBinding = z.object({ HostPort: z.string().min(1), HostIP: z.string().optional() }).loose();

const deploymentServiceSchema = z
  .object({
    image: z.string().min(1),
    command: z.array(z.string()).optional(),
    entrypoint: z.array(z.string()).optional(),
    user: z.string().optional(),
    environment: z.array(z.string()).optional(),
    binds: z.array(z.string()).optional(),
    ports: z.array(portBinding).optional(),
    specific_ports: z.array(portBinding).optional(),
    devices: z.array(z.string()).optional(),
    privileged: z.boolean().optional(),
    cap_add: z.array(z.string()).optional(),
    network: z.string().optional(),
    max_memory_mb: z.number().int().nonnegative().optional(),
    max_cpus: z.number().nonnegative().optional(),
    log_driver: z.string().optional(),
    secrets: z.record(z.string(), z.object({ description: z.string().optional() }).loose()).optional(),
  })
  .loose();

const deploymentSchema = z
  .object({
    services: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/), deploymentServiceSchema),
  })
  .loose();

export type DeploymentService = z.infer<typeof deploymentServiceSchema>;
export type Deployment = z.infer<typeof deploymentSchema>;

export class DeploymentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeploymentError';
  }
}

/** Parses a service's `deployment` string; a DeploymentError names what is wrong. */
export function parseDeployment(text: string): Deployment {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DeploymentError('deployment is not JSON');
  }
  const parsed = deploymentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeploymentError(`deployment.${issue?.path.join('.')}: ${issue?.message}`);
  }
  if (Object.keys(parsed.data.services).length === 0)
    throw new DeploymentError('deployment.services is empty');
  return parsed.data;
}
