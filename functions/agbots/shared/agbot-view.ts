import type * as z from 'zod';
import { MASKED } from '#lib/auth/secrets';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { type Clock, isoTimestamp } from '#lib/time';
import type { AgbotRecord } from '#tables/agbot/records';
import type { agbot as agbotResponse, getAgbotsResponse } from './responses.ts';

/** Agbots as upstream returns them (docs/exchange.md#record-shapes), the token always masked; typed by the response schema. */
export function agbotView(agbot: AgbotRecord): z.infer<typeof agbotResponse> {
  return {
    id: `${agbot.org}/${agbot.id}`,
    lastHeartbeat: agbot.lastHeartbeat,
    msgEndPoint: agbot.msgEndPoint,
    name: agbot.name,
    orgid: agbot.org,
    owner: agbot.owner,
    publicKey: agbot.publicKey,
    token: MASKED,
  };
}

/** `{agbots: {"org/id": Agbot}, lastIndex: 0}`, or upstream's 404 with the empty map. */
export function agbotsResponse(agbots: AgbotRecord[]) {
  const body: z.infer<typeof getAgbotsResponse> = {
    agbots: Object.fromEntries(agbots.map((agbot) => [`${agbot.org}/${agbot.id}`, agbotView(agbot)])),
    lastIndex: 0,
  };
  if (agbots.length === 0) throw emptyList(body);
  return json(200, body);
}

/** The value of one `?attribute=` (names checked by the query schema, any case). */
export function agbotAttribute(agbot: AgbotRecord, attribute: string): string | undefined {
  const view: Record<string, string> = agbotView(agbot);
  const name = Object.keys(view).find((key) => key.toLowerCase() === attribute.toLowerCase());
  return name === undefined ? undefined : view[name];
}

/** An agbot's timestamps (docs/compatibility.md#agbots-and-agbot-agreements): ISO 8601 followed by the zone name in square brackets. */
export const heartbeatTimestamp = (clock: Clock): string => `${isoTimestamp(clock)}[UTC]`;
