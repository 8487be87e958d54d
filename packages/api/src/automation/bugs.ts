/** Bug records; the bug type operations are public. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { segment } from '../core/transport.ts';
import { REST, type AutomationContext } from './context.ts';
import type {
  AutomationBug,
  AutomationBugType,
  AutomationBugTypeFields,
  AutomationBugUpdate,
} from './types.ts';

export class AutomationBugs {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** GET /rest/v1/bugs/types: lists bug types (`listBugTypes`). Public. */
  async listTypes(options?: CallOptions): Promise<AutomationBugType[]> {
    const { body } = await this.#ctx.http.send<AutomationBugType[]>({
      operation: 'listBugTypes',
      method: 'GET',
      path: `${REST}/bugs/types`,
      credentials: null,
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/bugs/types/{bugTypeId}: the fields of a bug type (`getBugType`). Public. */
  async getType(bugTypeId: string, options?: CallOptions): Promise<AutomationBugTypeFields> {
    const { body } = await this.#ctx.http.send<AutomationBugTypeFields>({
      operation: 'getBugType',
      method: 'GET',
      path: `${REST}/bugs/types/${segment(bugTypeId)}`,
      credentials: null,
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/bugs/detail/{bugId}: one bug (`getBug`). */
  async get(bugId: string, options?: CallOptions): Promise<AutomationBug> {
    const { body } = await this.#ctx.http.send<AutomationBug>({
      operation: 'getBug',
      method: 'GET',
      path: `${REST}/bugs/detail/${segment(bugId)}`,
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/bugs/query/: several bugs, the ids sent as a JSON array (`queryBugs`). */
  async query(ids: readonly string[], options?: CallOptions): Promise<AutomationBug[]> {
    const { body } = await this.#ctx.http.send<AutomationBug[]>({
      operation: 'queryBugs',
      method: 'GET',
      path: `${REST}/bugs/query/`,
      query: { ids: JSON.stringify(ids) },
      ...callSpec(options),
    });
    return body;
  }

  /** PUT /rest/v1/bugs/update/{bugId}: changes Title and Description, sent as a JSON object (`updateBug`). */
  async update(bugId: string, update: AutomationBugUpdate, options?: CallOptions): Promise<AutomationBug> {
    const { body } = await this.#ctx.http.send<AutomationBug>({
      operation: 'updateBug',
      method: 'PUT',
      path: `${REST}/bugs/update/${segment(bugId)}`,
      query: { update: JSON.stringify(update) },
      ...callSpec(options),
    });
    return body;
  }
}
