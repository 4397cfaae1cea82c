/** A JSON object: neither null nor an array. What a JSON-RPC reply, its result and a tool's structured content must be. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
