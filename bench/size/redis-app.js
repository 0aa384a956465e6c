// A worker that shares its key's pacing through Redis: what the /redis entry adds to the Client app.
import { Client } from '@employee-recognition/sdk';
import { RedisStore } from '@employee-recognition/sdk/redis';

export async function listRecognitions(redis) {
  const client = new Client({ rateLimit: { store: new RedisStore({ client: redis }) } });
  for await (const recognition of client.recognitions.list({ limit: 100 })) {
    console.log(recognition.message);
  }
}
