import * as z from 'zod';

/** PUT /node/configstate: only these two states can be asked for. */
export const configStateBody = z.object({
  state: z.enum(['configuring', 'configured'], "Supported state values are 'configuring' and 'configured'."),
});
