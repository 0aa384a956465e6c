// A traced app: the Client app with `instrumentation: openTelemetry()`. @opentelemetry/api is the
// app's own (ignored here): what the /otel entry adds to the Client app.
import { Client } from '@employee-recognition/sdk';
import { openTelemetry } from '@employee-recognition/sdk/otel';

export async function listRecognitions() {
  const client = new Client({ instrumentation: openTelemetry() });
  for await (const recognition of client.recognitions.list({ limit: 100 })) {
    console.log(recognition.message);
  }
}
