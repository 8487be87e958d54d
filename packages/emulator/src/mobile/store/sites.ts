/** Further sites of the account beside its own, created and deleted on the admin trail. */
import { AUDIT } from '../audit-types.ts';
import { invalid, notFound } from '../errors.ts';
import type { Site } from '../model.ts';
import type { Actor } from './audits.ts';
import { AuditedPart } from './audited-part.ts';

export class MobileSites extends AuditedPart {
  create(actor: Actor, name: string, loginMethod: number): Site {
    const { data } = this.state;
    const taken =
      name.toLowerCase() === data.siteName.toLowerCase() || data.sites.some((s) => s.name === name);
    if (taken) throw invalid('name', `a site named ${name} already exists`);
    const site: Site = {
      id: String(this.state.nextId('site') + 2000),
      name,
      loginMethod,
      ownerEmail: actor.account.email,
    };
    data.sites.push(site);
    this.audits.record(actor, AUDIT.siteCreated, { siteId: site.id, name, loginMethod });
    this.state.changed();
    return site;
  }

  delete(actor: Actor, id: string): void {
    const { data } = this.state;
    const site = data.sites.find((candidate) => candidate.id === id);
    if (!site) {
      if (id === data.enterpriseId) throw invalid('site-id', "the account's own site cannot be deleted");
      throw notFound(`site ${id}`);
    }
    data.sites = data.sites.filter((candidate) => candidate !== site);
    this.audits.record(actor, AUDIT.siteDeleted, { siteId: site.id, name: site.name });
    this.state.changed();
  }
}
