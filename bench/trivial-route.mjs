// The denominator of the server's CPU per request (bench/server-cost.mjs): Fastify answering one
// route with a short text, nothing else — no hooks, no logger, no compression. Started by the bench
// with the same Node and the same node flags as the compiled server (nodeArguments('server')), and
// the same Fastify (the server's bundle imports it from node_modules too). Listens on
// 127.0.0.1:PORT; SIGTERM ends it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => 'ok');
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
