/**
 * Cloud requests and cloud storage (WIRE.md §8-9): a host answering a Scratch project's requests
 * sent through cloud variables, and a key-value store served that way.
 *
 * @module
 */
export type { CloudLike, CloudLogLike, CloudSetLike } from './cloud-like.js';
export {
  CloudRequestError,
  type CloudRequestErrorKind,
  CloudRequests,
  type CloudRequestsEventMap,
  type CloudRequestsOptions,
  type CloudResponseEvent,
  type HandlerReturn,
  type RequestContext,
  type RequestHandler,
  type RequestResult,
} from './cloud-requests.js';
export {
  CloudStorage,
  type CloudStorageEventMap,
  type CloudStorageOptions,
  PING_ANSWER,
} from './cloud-storage.js';
export { type AssembleResult, RequestAssembler, type RequestAssemblerOptions } from './request-assembler.js';
export {
  ARGUMENT_SEPARATOR,
  acceptsRaw,
  buildPackets,
  checkRequestName,
  type DecodedRequest,
  decodeRequest,
  type EncodedResponse,
  encodeRequest,
  encodeResponse,
  errorText,
  LAST_PACKET_TAIL,
  MARKER_ENCODED,
  MARKER_RAW,
  MAX_PACKETS,
  PACKET_OVERHEAD,
  PACKET_TAIL,
  PUSH_ID_PREFIX,
  packetSize,
  parseRequestValue,
  type RequestPiece,
  type ResponseMarker,
  type ResponseValue,
  randomPushId,
  randomRequestId,
  SHORT_REQUEST_DIGITS,
} from './request-protocol.js';
export { type LogReader, RequesterLookup, type RequesterLookupOptions } from './requester-lookup.js';
