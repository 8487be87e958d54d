/** Bug records; the bug type operations are public. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { AutomationResource } from './context.ts';
import type {
  AutomationBug,
  AutomationBugType,
  AutomationBugTypeFields,
  AutomationBugUpdate,
} from './types.ts';

const BUGS = operations({
  listBugTypes: { route: 'GET /bugs/types', credentials: null },
  getBugType: { route: 'GET /bugs/types/{bugTypeId}', credentials: null },
  getBug: 'GET /bugs/detail/{bugId}',
  queryBugs: 'GET /bugs/query/',
  updateBug: 'PUT /bugs/update/{bugId}',
});

export class AutomationBugs extends AutomationResource {
  /** GET /rest/v1/bugs/types: lists bug types (`listBugTypes`). Public. */
  async listTypes(options?: CallOptions): Promise<AutomationBugType[]> {
    return this.call(BUGS.listBugTypes, {}, options);
  }

  /** GET /rest/v1/bugs/types/{bugTypeId}: the fields of a bug type (`getBugType`). Public. */
  async getType(bugTypeId: string, options?: CallOptions): Promise<AutomationBugTypeFields> {
    return this.call(BUGS.getBugType, { path: { bugTypeId } }, options);
  }

  /** GET /rest/v1/bugs/detail/{bugId}: one bug (`getBug`). */
  async get(bugId: string, options?: CallOptions): Promise<AutomationBug> {
    return this.call(BUGS.getBug, { path: { bugId } }, options);
  }

  /** GET /rest/v1/bugs/query/: several bugs, the ids sent as a JSON array (`queryBugs`). */
  async query(ids: readonly string[], options?: CallOptions): Promise<AutomationBug[]> {
    return this.call(BUGS.queryBugs, { query: { ids: JSON.stringify(ids) } }, options);
  }

  /** PUT /rest/v1/bugs/update/{bugId}: changes Title and Description, sent as a JSON object (`updateBug`). */
  async update(bugId: string, update: AutomationBugUpdate, options?: CallOptions): Promise<AutomationBug> {
    return this.call(BUGS.updateBug, { path: { bugId }, query: { update: JSON.stringify(update) } }, options);
  }
}
