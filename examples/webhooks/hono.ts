/**
 * A webhook receiver in a Hono app, on any runtime Hono runs on (Workers, Bun, Deno, Node).
 * The secret comes from the RECOGNITION_WEBHOOK_SECRET binding (Workers) or variable.
 */
import { createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { Hono } from 'hono';
import { receiver } from './receiver.js';

const handle = createWebMiddleware(receiver);

const app = new Hono();
// The raw Request, unread: c.req.json() first would consume the bytes that were signed. c.env
// carries a Worker's bindings, the secret among them.
app.post('/webhooks', (c) => handle(c.req.raw, c.env));

// A Worker module, as Bun and Deno serve one too: the runtime calls app.fetch(request, env, ctx).
export default app;
