/** A JSON-RPC 2.0 error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** geth's generic server error, used for "header not found" and failed estimates. */
export const SERVER_ERROR = -32000;
/** geth/EIP-1474 code for a call that reverted; `data` is the revert payload. */
export const EXECUTION_REVERTED = 3;

export const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, `invalid params: ${message}`);
