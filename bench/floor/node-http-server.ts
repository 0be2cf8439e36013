import { createServer } from 'node:http';
import { handler } from './get-item-function.ts';

/**
 * The floor function behind a bare `node:http` server (bench only): what the same GetItem costs
 * over HTTP without serverless-offline. Listens on 127.0.0.1:$PORT and prints `listening` when ready.
 */
const server = createServer((request, response) => {
  const rawPath = (request.url ?? '/').split('?')[0] ?? '/';
  handler({ rawPath }).then(
    ({ statusCode, headers, body }) => {
      response.writeHead(statusCode, headers).end(body);
    },
    (error: Error) => {
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ msg: error.message }));
    },
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
