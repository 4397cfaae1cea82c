/** Who a signature is from (docs/protocol.md#gvapproval): each class counts toward k by the space's review mode. */
export const SIGNER_CLASSES = ['human', 'model', 'authority', 'deployment', 'agent'] as const;
export type SignerClass = (typeof SIGNER_CLASSES)[number];

/**
 * A signed-in person signs as human; an API key or a socket peer acts as an agent, whatever
 * its role (a sign without an operator proof is the calling identity's, never a human's).
 */
export const signerClassOf = (caller: { readonly kind: string }): SignerClass => (caller.kind === 'person' ? 'human' : 'agent');

/** The class of an event's signer when the event does not record one: the deployment signs as null. */
export function classOfIdentity(by: string | null): SignerClass {
  if (by === null) return 'deployment';
  return by.includes('|') ? 'human' : 'agent';
}
