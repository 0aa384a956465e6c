/**
 * `@employee-recognition/sdk/doctor`: checks the service a client talks to against every
 * assumption the SDK makes, for a CI job, a cron job or an app's health endpoint, with the report
 * `employee-recognition doctor` prints (docs/doctor.md). A subpath of its own: an app that never
 * diagnoses never loads it.
 *
 * @packageDocumentation
 */

export {
  CHECK_IDS,
  type CredentialKind,
  diagnose,
  type DiagnoseOptions,
  MAX_REQUESTS,
  WINDOW_RESERVE,
} from './diagnose.js';
export {
  type CheckStatus,
  createReport,
  type DoctorCheck,
  type DoctorReport,
  printable,
  REDACTED,
  redactReport,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from './report.js';
export {
  answersWithRecords,
  checkRecords,
  type NewField,
  type RecordCheck,
  type RecordDifference,
} from './records.js';
export { ASSUMPTIONS, recordAssumption } from './assumptions.js';
export {
  checkTraffic,
  diffTraffic,
  type HeaderChange,
  TRAFFIC_CHECK_IDS,
  type TrafficDiff,
  type TrafficDifference,
} from './traffic.js';
export {
  type CapturedDelivery,
  diagnoseDelivery,
  type DiagnoseDeliveryOptions,
  readCapturedDelivery,
} from './delivery.js';
