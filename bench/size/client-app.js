// A browser app that lists recognitions with the SDK's Client: what its bundle costs.
import { Client } from '@employee-recognition/sdk';

async function showRecognitions() {
  const client = new Client({ apiKey: 'rk_test_000000000000000000000000' });
  for await (const recognition of client.recognitions.list({ limit: 100 })) {
    console.log(recognition.message);
  }
}

showRecognitions();
