// A server app that authenticates with OAuth client credentials: what the /oauth subpath adds to
// the Client app (bench/size/client-app.js).
import { Client } from '@employee-recognition/sdk';
import { clientCredentials } from '@employee-recognition/sdk/oauth';

async function showRecognitions() {
  const apiKey = clientCredentials({ clientId: 'rc_0000000000000000', clientSecret: 'secret' });
  const client = new Client({ apiKey });
  for await (const recognition of client.recognitions.list({ limit: 100 })) {
    console.log(recognition.message);
  }
}

showRecognitions();
