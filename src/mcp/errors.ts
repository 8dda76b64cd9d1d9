import { ErrorCode as RpcCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../lib/log.js';
import { asAppError, type ErrorCode } from '../lib/errors.js';

/**
 * The one mapper of the MCP surface, from the typed errors of lib/errors.ts (asAppError, as
 * REST's error handler): the detail is REST's detail word for word, the code and status
 * ride in `_meta` for programs.
 */
function describe(err: unknown, log: Logger): { detail: string; code: ErrorCode; status: number } {
  const known = asAppError(err, log);
  if (known) return { detail: known.detail, code: known.code, status: known.status };
  log.error({ err }, 'unhandled error in an MCP call');
  return { detail: 'Internal server error', code: 'internal_error', status: 500 };
}

/** A tool's failure as a tool result (`isError: true`): the model reads it and can act on it. */
export function toolError(err: unknown, log: Logger): CallToolResult {
  const { detail, code, status } = describe(err, log);
  return { isError: true, content: [{ type: 'text', text: detail }], _meta: { 'sightline/error': { code, status } } };
}

/**
 * A JSON-RPC error the SDK sends as it is: `code`, the bare detail as `message` (an
 * McpError would prefix its code to the text), and `{code, status}` as `data`.
 */
class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/** Resources and prompts have no error result: a JSON-RPC error with the same detail. */
export function protocolError(err: unknown, log: Logger): Error {
  const { detail, code, status } = describe(err, log);
  const rpc = status === 404 ? -32002 : status >= 500 ? RpcCode.InternalError : RpcCode.InvalidParams;
  return new RpcFailure(rpc, detail, { code, status });
}
