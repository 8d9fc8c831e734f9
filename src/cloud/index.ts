/** Cloud variables: the connection, its log and its events (WIRE.md §5-6). */

export {
  CLOSE_BAD_USERNAME,
  CLOSE_NO_USER_AGENT,
  CLOSE_OVERLOADED,
  CLOSE_PLATFORM_COOKIE,
  CLOSE_PROJECT_UNAVAILABLE,
  CLOSE_PROTOCOL_ERROR,
  describeCloseCode,
  isPermanentCloseCode,
  PERMANENT_CLOSE_CODES,
} from './close-codes.js';
export {
  type AlternateCloudOptions,
  Cloud,
  type CloudConnectEvent,
  type CloudConstructorOptions,
  type CloudDisconnectEvent,
  type CloudEventMap,
  type CloudOptions,
  type CloudSentEvent,
  type CloudSetEvent,
  type CloudWarningEvent,
} from './cloud.js';
export type { ConnectionState } from './cloud-connection.js';
export { CloudError } from './cloud-error.js';
export {
  type CloudActivity,
  CloudEvents,
  type CloudEventsHost,
  type CloudEventsMap,
  type CloudEventsOptions,
  type CloudEventsSource,
} from './cloud-events.js';
export { type CloudLogOptions, LOGS_PAGE_SIZE } from './cloud-logs.js';
export type { WebSocketConstructor } from './cloud-socket.js';
export {
  ALTERNATE_LENGTH_LIMIT,
  CLOUD_PREFIX,
  isNumericValue,
  PLATFORM_LENGTH_LIMIT,
  stripPrefix,
  toWireName,
} from './cloud-values.js';
export * from './requests/index.js';
