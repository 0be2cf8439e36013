import type { AgbotAgreement, AgbotStore } from '#lib/agbot-store/contract';

/**
 * The round's live agreements, listed once (one Query on DynamoDB) after the mailbox is read:
 * the steps that govern them (resumed proposals, timeouts, changes, node health, secret updates)
 * share this one listing, and each tells it of the agreements it ends or updates, so a later
 * step never acts on one that an earlier step ended.
 */
export class LiveAgreements {
  private constructor(private readonly byId: Map<string, AgbotAgreement>) {}

  static async read(store: Pick<AgbotStore, 'listAgreements'>): Promise<LiveAgreements> {
    return LiveAgreements.of(await store.listAgreements(false));
  }

  static of(agreements: AgbotAgreement[]): LiveAgreements {
    return new LiveAgreements(new Map(agreements.map((a) => [a.agreementId, a])));
  }

  /** The agreements still live, oldest first (the store's order). */
  list(): AgbotAgreement[] {
    return [...this.byId.values()];
  }

  ended(agreementId: string): void {
    this.byId.delete(agreementId);
  }

  updated(agreement: AgbotAgreement): void {
    if (this.byId.has(agreement.agreementId)) this.byId.set(agreement.agreementId, agreement);
  }
}
