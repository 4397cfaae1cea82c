/**
 * How deep a request may nest, the request object itself counting as 1 (so a verb's params
 * may nest 63 deep over /rpc and the socket, a tool's arguments 62 over /mcp). Every walk of
 * a message after JSON.parse recurses (the null check, zod, canonical JSON); this bound keeps
 * them all far from the end of the stack. Each door refuses a deeper request -32602 before
 * anything walks it.
 */
export const MAX_REQUEST_DEPTH = 64;
