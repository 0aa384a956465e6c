// A health endpoint: the Client app plus diagnose() from @employee-recognition/sdk/doctor and the
// JSON rendering: what the /doctor entry adds to an app that imports it (nothing to one that
// does not: the Client app's budget holds without it).
import { Client } from '@employee-recognition/sdk';
import { diagnose, renderJson } from '@employee-recognition/sdk/doctor';

export async function health() {
  const client = new Client();
  const report = await diagnose(client, { credential: { kind: 'live' } });
  return new Response(renderJson(report), { status: report.ok ? 200 : 503 });
}
