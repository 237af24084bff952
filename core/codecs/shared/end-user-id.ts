/**
 * The end-user id an OpenAI client gives: `user`, else `safety_identifier`, OpenAI's successor of it (the field stays
 * with the client format's own, so an upstream of that format gets it back as it came).
 */
export function endUserId(body: { user?: unknown; safety_identifier?: unknown }): string | undefined {
  if (typeof body.user === 'string') return body.user;
  return typeof body.safety_identifier === 'string' ? body.safety_identifier : undefined;
}
