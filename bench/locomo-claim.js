// One LoCoMo turn as a claim, in the form ../shared/data/locomo-dev/README.md gives for its
// measure. The recall bench ingests turns in this form and the attack classifier learns
// them as benign text in the same form, so the two always read the same claims.

/** `"<speaker> (<session date>): <text>"`, and `" [shares <blip_caption>]"` when the turn shares a photo. */
export function locomoClaim(turn, date) {
  const shares = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : '';
  return `${turn.speaker} (${date}): ${turn.text}${shares}`;
}
