/**
 * The signal channel's function in serverless.yml (docs/signals.md): API Gateway's WebSocket API,
 * one small Lambda for its three routes. Not a route family: no HTTP mount, no OpenAPI operation.
 */
export const SIGNALS_FUNCTION = {
  handler: 'functions/signals/lambda.handler',
  memorySize: 256,
  events: [
    { websocket: { route: '$connect' } },
    { websocket: { route: '$disconnect' } },
    { websocket: { route: '$default' } },
  ],
};
