import { MESSAGE_MAX_LENGTH, POINTS_MAX } from '../../contract.js';
import type { ErrorDetail } from '../../internal/wire.js';
import { type Caller, findOr404, getOperation, type Operation } from '../operation.js';
import { paginate, parsePaging } from '../pagination.js';
import type { MockRecognition, MockUser } from '../records.js';
import type { Store } from '../store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { assertValid, isUuid, parseBody } from '../validation.js';

/** GET /v1/recognitions: newest first, filtered by `from`, `to`, `sender_id`, `recipient_id`. */
export const listRecognitions: Operation = ({ store, query }) => {
  const matches = parseFilters(query);
  const paging = parsePaging(query);
  const rows = store.recognitions.rows().filter((row) => matches(row.record));
  return { status: 200, body: paginate(rows, 'newest-first', paging) };
};

/** GET /v1/recognitions/{id} */
export const getRecognition = getOperation((store) => store.recognitions, 'recognition');

/** POST /v1/recognitions: sent by the credential's user; emits `recognition.created`. */
export const createRecognition: Operation = ({ store, body, caller, now, emit }) => {
  const input = parseBody(body, ['recipient_id', 'message', 'points']);
  const sender = senderOf(caller, store);
  const details: ErrorDetail[] = [];
  const recipient = checkRecipient(store, input.recipient_id, sender, details);
  const message = checkMessage(input.message, details);
  const points = input.points === undefined ? 0 : input.points;
  if (!Number.isInteger(points) || (points as number) < 0 || (points as number) > POINTS_MAX) {
    details.push({ field: 'points', message: `must be an integer from 0 to ${POINTS_MAX}` });
  }
  if (!sender) details.push({ field: 'sender', message: "the credential's user does not exist" });
  assertValid(422, 'The recognition is not valid.', details);
  const recognition = store.recognitions.insert({
    sender: { id: sender!.id, name: sender!.name },
    recipient: { id: recipient!.id, name: recipient!.name },
    message: message!,
    points: points as number,
    created_at: toTimestamp(now),
  });
  emit('recognition.created', recognition);
  return { status: 201, body: { data: recognition } };
};

/** DELETE /v1/recognitions/{id}: emits `recognition.deleted` with the removed record. */
export const deleteRecognition: Operation = ({ store, params, emit }) => {
  const recognition = findOr404(store.recognitions, params.id, 'recognition');
  store.recognitions.delete(recognition.id);
  emit('recognition.deleted', recognition);
  return { status: 204 };
};

/** A key without a `userId` belongs to the store's first user, whatever the store holds now. */
function senderOf(caller: Caller, store: Store): MockUser | undefined {
  return caller.userId === undefined
    ? store.users.rows()[0]?.record
    : store.users.find(caller.userId);
}

function checkRecipient(
  store: Store,
  value: unknown,
  sender: MockUser | undefined,
  details: ErrorDetail[],
): MockUser | undefined {
  const problem = (message: string) => {
    details.push({ field: 'recipient_id', message });
    return undefined;
  };
  if (value === undefined) return problem('is required');
  if (!isUuid(value)) return problem('must be a UUID');
  const recipient = store.users.find(value.toLowerCase());
  if (!recipient) return problem('does not match any user');
  if (recipient.id === sender?.id)
    return problem('must not be the sender: you cannot recognize yourself');
  return recipient;
}

function checkMessage(value: unknown, details: ErrorDetail[]): string | undefined {
  const problem = (message: string) => {
    details.push({ field: 'message', message });
    return undefined;
  };
  if (value === undefined) return problem('is required');
  if (typeof value !== 'string') return problem('must be a string');
  const message = value.trim();
  // Characters, not UTF-16 units: an emoji counts once.
  const length = [...message].length;
  if (length === 0) return problem('must not be empty');
  if (length > MESSAGE_MAX_LENGTH)
    return problem(`must be at most ${MESSAGE_MAX_LENGTH} characters`);
  return message;
}

function parseFilters(query: URLSearchParams): (recognition: MockRecognition) => boolean {
  const details: ErrorDetail[] = [];
  const instant = (field: 'from' | 'to', fallback: number): number => {
    const text = query.get(field);
    if (text === null) return fallback;
    const ms = parseInstant(text, field === 'to');
    if (ms !== undefined) return ms;
    details.push({ field, message: 'must be an ISO 8601 date or date-time' });
    return fallback;
  };
  const person = (field: 'sender_id' | 'recipient_id'): string | undefined => {
    const id = query.get(field);
    if (id === null) return undefined;
    if (!isUuid(id)) details.push({ field, message: 'must be a UUID' });
    return id.toLowerCase();
  };
  const from = instant('from', Number.NEGATIVE_INFINITY);
  const to = instant('to', Number.POSITIVE_INFINITY);
  const senderId = person('sender_id');
  const recipientId = person('recipient_id');
  assertValid(400, 'Invalid filters.', details);
  return (recognition) => {
    const time = Date.parse(recognition.created_at);
    return (
      time >= from &&
      time <= to &&
      (senderId === undefined || recognition.sender.id === senderId) &&
      (recipientId === undefined || recognition.recipient.id === recipientId)
    );
  };
}
