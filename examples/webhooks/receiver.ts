/**
 * The receiver every example in this folder serves: one handler per event it cares about. Put
 * your application's work where the console lines are. The secret comes from the
 * RECOGNITION_WEBHOOK_SECRET environment variable (in a Worker, from the binding of that name).
 *
 * Delivery is at least once: the receiver drops copies of events it has handled, in this
 * process's memory by default; several processes or serverless instances share a store instead
 * (docs/webhooks.md, De-duplication).
 */
import { createWebhookReceiver } from '@employee-recognition/sdk/webhooks';

export const receiver = createWebhookReceiver()
  // Checking nothing: `event.data` is a Recognition here.
  .on('recognition.created', (event) => {
    const { sender, recipient, message } = event.data;
    console.log(`${sender.name} recognised ${recipient.name}: ${message}`);
  })
  .on('team.member_added', (event) => {
    console.log(`${event.data.user.name} joined ${event.data.team.name}`);
  })
  // A whole group: every budget event, narrowed by its type.
  .on('budget', (event) => {
    if (event.type === 'budget.depleted') {
      console.log(`Budget ${event.data.id} is used up (${event.data.total_points} points)`);
    }
  })
  // A failed handler answers 500, so the service retries; here is where you hear of it.
  .onError((error) => {
    console.error(`Webhook ${error.event.id} failed:`, error.cause);
  });
