/** The agbot whose state a call reads or writes: its partition is `AGBOTSTATE#<org>/<id>`. */
export interface AgbotRef {
  org: string;
  id: string;
}
