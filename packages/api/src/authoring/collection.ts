/**
 * What the authoring collections (test cases, suites, schedules) share: a page of the collection
 * with its list's filters, every item page after page, and one item by id; for suites and
 * schedules, creating and changing one too. Each collection is a table of its operations; it
 * adds the ones that are its own (delete, run, rename).
 */
import type { CallOptions } from '../core/values/call.ts';
import { paginateSkipLimit, type PageOptions } from '../core/resources/pagination.ts';
import { json, type Operation } from '../core/resources/resource.ts';
import type { QueryValue } from '../core/transport/transport.ts';
import { AuthoringResource, cappedPaging, widePages, type AuthoringContext } from './context.ts';
import type { AuthoringPage } from './types.ts';

interface PageQuery {
  skip?: number;
  limit?: number;
}

/** How a collection lists: its two reading operations and the filters of its list as sent. */
export interface CollectionTable<Query> {
  readonly list: Operation;
  readonly get: Operation;
  /** The list's own filters, in the order the query sends them (`skip` and `limit` follow). */
  readonly filters: (query: Query) => Record<string, QueryValue>;
}

export abstract class AuthoringCollection<Item, Detail, Query extends PageQuery> extends AuthoringResource {
  readonly #table: CollectionTable<Query>;

  protected constructor(context: AuthoringContext, table: CollectionTable<Query>) {
    super(context);
    this.#table = table;
  }

  /**
   * GET {prefix}/{collection}: one page of the collection, with the filters of its query;
   * `limit: 0` returns only the total.
   */
  list(query: Query = {} as Query, options?: CallOptions): Promise<AuthoringPage<Item>> {
    const { list, filters } = this.#table;
    return this.call(list, { query: { ...filters(query), skip: query.skip, limit: query.limit } }, options);
  }

  /** GET {prefix}/{collection} (every page): all matching items, fetched as needed. */
  iterate(
    query: Omit<Query, 'skip' | 'limit'> = {} as Omit<Query, 'skip' | 'limit'>,
    options: PageOptions & CallOptions = {},
  ): AsyncGenerator<Item, void, undefined> {
    return paginateSkipLimit(
      widePages((skip, limit) => this.list({ ...query, skip, limit } as Query, options)),
      cappedPaging(options),
    );
  }

  /** GET {prefix}/{collection}/{id}: one item. */
  get(id: string, options?: CallOptions): Promise<Detail> {
    return this.call(this.#table.get, { path: { id } }, options);
  }
}

/** How an editable collection creates and changes its items, beside how it lists them. */
export interface EditableCollectionTable<Query> extends CollectionTable<Query> {
  readonly create: Operation;
  readonly update: Operation;
}

export abstract class EditableAuthoringCollection<
  Item,
  Query extends PageQuery,
  Create,
  Update,
> extends AuthoringCollection<Item, Item, Query> {
  readonly #table: EditableCollectionTable<Query>;

  protected constructor(context: AuthoringContext, table: EditableCollectionTable<Query>) {
    super(context, table);
    this.#table = table;
  }

  /** POST {prefix}/{collection}: creates an item (201). */
  create(input: Create, options?: CallOptions): Promise<Item> {
    return this.call(this.#table.create, { body: json(input) }, options);
  }

  /** POST {prefix}/{collection}/{id}: changes an item, as the members of its input say. */
  update(id: string, input: Update, options?: CallOptions): Promise<Item> {
    return this.call(this.#table.update, { path: { id }, body: json(input) }, options);
  }
}
