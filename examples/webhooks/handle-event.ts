import type { WebhookEvent, WebhookVerificationError } from '@employee-recognition/sdk/webhooks';

/**
 * Stands for your application's work. Checking `type` narrows `data` to that event's record.
 * Delivery is at least once: the same event may come twice, so make this idempotent, e.g. by
 * remembering `event.id` (see docs/webhooks.md).
 */
export async function handleEvent(event: WebhookEvent): Promise<void> {
  switch (event.type) {
    case 'recognition.created':
      console.log(
        `${event.data.sender.name} recognised ${event.data.recipient.name}: ${event.data.message}`,
      );
      break;
    case 'team.member_added':
      console.log(`${event.data.user.name} joined ${event.data.team.name}`);
      break;
    case 'budget.depleted':
      console.log(`Budget ${event.data.id} is used up (${event.data.total_points} points)`);
      break;
    default:
      // Other types, including those added after this SDK version: acknowledged, not retried.
      console.log(`Ignored ${String(event.type)}`);
  }
}

/**
 * The status to answer a delivery that failed verification with. A malformed secret is the
 * receiver's own fault: a 5xx makes the service retry once it is fixed. Anything else is a 4xx.
 */
export function rejectionStatus(error: WebhookVerificationError): 400 | 500 {
  return error.reason === 'invalid_secret' ? 500 : 400;
}
