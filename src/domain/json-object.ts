/** A JSON object: neither null nor an array. What a JSON-RPC message, its params and a tool's arguments must be. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
