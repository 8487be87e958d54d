/**
 * Public information: service status, supported platforms and Sauce Connect downloads. No
 * credentials are sent.
 *
 * Seed 002 places these operations under its base address, like every other one:
 * `{rest_url}/info/status` and `{rest_url}/info/platforms/:automation_api`, where `{rest_url}`
 * ends with `/rest/v1`. It adds that they are served over plain HTTP: they answer without TLS as
 * well, which the client does not need. It keeps the configured base address, so an `https`
 * address is never downgraded, and a client pointed at the emulator (plain HTTP) reaches them too.
 */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { AutomationResource } from './context.ts';
import type { AutomationApi, AutomationPlatform, AutomationServiceStatus } from './types.ts';

/** Which Sauce Connect build to name: the platform as the listing spells it, and a version. */
export interface SauceConnectDownloadParams {
  /** `linux`, `macos` or `windows`. */
  os: string;
  /** `x86_64` or `arm64`. */
  arch: string;
  /** A full version; without one the service names its newest. */
  version?: string;
}

/** A digest the service publishes for an archive: `algorithm` such as `sha256`, `value` in hex. */
export interface SauceConnectChecksum {
  algorithm: string;
  value: string;
}

/** The listing's answer: where the archive is, its version, and its checksums. */
export interface SauceConnectDownload {
  download: { url: string; version: string; checksums: SauceConnectChecksum[] };
}

const INFO = operations({
  getStatus: { route: 'GET /info/status', credentials: null },
  listPlatforms: { route: 'GET /info/platforms/{automationApi}', credentials: null },
  getSauceConnectDownload: { route: 'GET /public/tunnels/sauce-connect/download', credentials: null },
});

export class AutomationInfo extends AutomationResource {
  /** GET /rest/v1/info/status: current service status (`getStatus`). */
  async getStatus(options?: CallOptions): Promise<AutomationServiceStatus> {
    return this.call(INFO.getStatus, {}, options);
  }

  /** GET /rest/v1/info/platforms/{automationApi}: supported platforms of an automation interface (`listPlatforms`). */
  async listPlatforms(automationApi: AutomationApi, options?: CallOptions): Promise<AutomationPlatform[]> {
    return this.call(INFO.listPlatforms, { path: { automationApi } }, options);
  }

  /**
   * GET /rest/v1/public/tunnels/sauce-connect/download: the Sauce Connect archive of a platform and
   * version, with its checksums (`getSauceConnectDownload`). The fields are as the service sends
   * them: a caller that trusts the archive checks them.
   */
  async getSauceConnectDownload(
    params: SauceConnectDownloadParams,
    options?: CallOptions,
  ): Promise<SauceConnectDownload> {
    const query = { os: params.os, arch: params.arch, version: params.version };
    return this.call(INFO.getSauceConnectDownload, { query }, options);
  }
}
