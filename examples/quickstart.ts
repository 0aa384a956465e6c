/**
 * Quickstart: list, page with `for await`, create, and catch errors.
 *
 * Against any deployment of the API:
 *   RECOGNITION_API_KEY=rk_test_… RECOGNITION_BASE_URL=https://… npx tsx examples/quickstart.ts
 * Against the built-in mock, with nothing to set up: `npm run demo`.
 */
import { pathToFileURL } from 'node:url';
import {
  ApiError,
  Client,
  NotFoundError,
  UnprocessableEntityError,
} from '@employee-recognition/sdk';

/** Runs the tour with the given client, writing what happens to `log`. */
export async function quickstart(client: Client, log: (line: string) => void = console.log) {
  log('1. The latest recognitions (the first page of a list)');
  const page = await client.recognitions.list({ limit: 5 });
  for (const r of page.data) {
    log(`   ${r.sender.name} → ${r.recipient.name} (+${r.points}): ${r.message}`);
  }
  log(`   page ${page.pagination.page} of ${page.pagination.total_pages}`);

  log('\n2. Every recognition of the last 30 days, page by page with for await');
  const since = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
  let pages = 0;
  let count = 0;
  let points = 0;
  for await (const batch of client.recognitions.list({ limit: 25, from: since }).pages()) {
    pages++;
    count += batch.data.length;
    for (const r of batch.data) points += r.points;
  }
  log(`   ${count} recognitions, ${points} points, read in ${pages} pages`);

  log('\n3. Recognizing a colleague');
  const { data: users } = await client.users.list({ limit: 20 });
  const recipient = users.findLast((user) => user.status === 'active');
  if (!recipient) throw new Error('No active user to recognize');
  // withResponse() gives the HTTP details beside the result: request id, rate-limit state.
  const {
    data: { data: created },
    requestId,
    rateLimit,
  } = await client.recognitions
    .create({ recipient_id: recipient.id, message: 'Thanks for the thorough review!', points: 25 })
    .withResponse();
  log(
    `   created ${created.id}: ${created.sender.name} → ${created.recipient.name} (+${created.points})`,
  );
  log(
    `   request ${requestId}; ${rateLimit?.remaining} of ${rateLimit?.limit} requests left this window`,
  );

  log('\n4. Catching errors');
  try {
    await client.recognitions.get('00000000-0000-4000-8000-000000000000');
  } catch (error) {
    if (error instanceof NotFoundError) {
      log(
        `   NotFoundError: status ${error.status}, code ${error.code}, request ${error.requestId}`,
      );
    } else if (error instanceof ApiError) {
      log(`   ${error.name}: ${error.status} ${error.code}: ${error.message}`);
    } else {
      throw error;
    }
  }
  try {
    await client.recognitions.create({ recipient_id: 'not-a-uuid', message: '  ', points: 2.5 });
  } catch (error) {
    if (!(error instanceof UnprocessableEntityError)) throw error;
    log(`   UnprocessableEntityError (raised locally: ${error.local}, nothing sent):`);
    for (const detail of error.details ?? []) log(`     ${detail.field}: ${detail.message}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await quickstart(new Client());
}
