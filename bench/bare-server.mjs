// Baseline for the trigger-ingest benchmark: a bare node:http server that reads the body,
// answers 202 and does nothing else. Prints its port on stdout.
import http from 'node:http';

const server = http.createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(202, { 'content-type': 'application/json' });
    response.end('{"run":{"id":"run_0","status":"queued","threadId":"thr_0"}}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
