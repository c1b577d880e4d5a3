/** JSON-RPC and MCP error codes used on the wire. */
export enum ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  HeaderMismatch = -32020,
  MissingRequiredClientCapability = -32021,
  UnsupportedProtocolVersion = -32022,
  /** Legacy (2025) "resource not found"; the 2026 revision uses -32602. */
  LegacyResourceNotFound = -32002,
  /** Legacy (2025): the request needs the user to visit the URLs in `data.elicitations` first. */
  LegacyUrlElicitationRequired = -32042,
}

export type ErrorCodeValue = ErrorCode;

/**
 * A failure the model should see and can act on: a tool that throws it is answered with a result
 * carrying `isError: true` and this message, not with a protocol error.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
}

/** A protocol fault: answered as a JSON-RPC error, with an HTTP status where the spec fixes one. */
export class RpcError extends Error {
  override readonly name = "RpcError";

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** HTTP status for the reply; the transport picks one from the code when absent. */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
