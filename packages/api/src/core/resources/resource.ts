/**
 * What the resource groups of the three interfaces share. A group is a table of its operations
 * (each one's name, method and path, and the fields callers read of its answer) and methods that
 * name a row and give what the call adds: path values, query, body. The path's `{name}` holes
 * take the call's values, each encoded as one segment; an interface's resource says how its
 * requests go out and how its answers are read.
 */
import { callSpec, type CallOptions } from '../values/call.ts';
import { checkAnswer, type Shape } from './shape.ts';
import {
  segment,
  type ApiResponse,
  type HttpMethod,
  type HttpTransport,
  type QueryValue,
  type RequestBody,
  type RequestSpec,
  type ResponseType,
} from '../transport/transport.ts';

/** One operation of a resource: what every call of it sends alike. */
export interface Operation {
  readonly operation: string;
  readonly method: HttpMethod;
  /** Below the interface's prefix, with a `{name}` hole for each path value. */
  readonly path: string;
  /** The fields callers read of the answer, checked before it is returned. */
  readonly shape?: Shape;
  /** Set where repeating is safe although the method does not say so (or unsafe though it does). */
  readonly idempotent?: boolean;
  readonly responseType?: ResponseType;
  /** `null` for the public operations, which send no credentials. */
  readonly credentials?: null;
}

/** An operation's method and path as the interface's documents write them: `GET /jobs/{id}`. */
export type Route = `${HttpMethod} /${string}`;

/** A row of a table as written: its route, or its route with the row's other members. */
export type RowSpec = Route | ({ readonly route: Route; readonly operation?: string } & OperationExtras);

type OperationExtras = Omit<Operation, 'operation' | 'method' | 'path'>;

/**
 * A resource's table of operations, each row named by its operation unless it says otherwise
 * (two routes of one operation).
 */
export function operations<const Rows extends Readonly<Record<string, RowSpec>>>(
  rows: Rows,
): { readonly [Name in keyof Rows]: Operation } {
  const table: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(rows)) {
    const { route, operation = name, ...extras } = typeof spec === 'string' ? { route: spec } : spec;
    const space = route.indexOf(' ');
    const method = route.slice(0, space) as HttpMethod;
    table[name] = { operation, method, path: route.slice(space + 1), ...extras };
  }
  return table as { readonly [Name in keyof Rows]: Operation };
}

/** A value of a path hole; `undefined` where the interface has a default for it. */
export type PathValue = string | number | undefined;

/** What one call adds to its operation. */
export interface CallParts {
  readonly path?: Readonly<Record<string, PathValue>>;
  readonly query?: Record<string, QueryValue>;
  readonly body?: RequestBody;
  readonly headers?: Record<string, string>;
}

/** A JSON body. */
export function json(value: unknown): RequestBody {
  return { kind: 'json', value };
}

/** A form body; fields left undefined are not sent. */
export function form(fields: Record<string, string | number | boolean | undefined>): RequestBody {
  return { kind: 'form', fields };
}

/** What a resource sends through: its interface's client, or the transport alone. */
export interface ResourceContext {
  readonly http: HttpTransport;
}

export abstract class Resource {
  readonly #context: ResourceContext;
  readonly #prefix: string;

  protected constructor(context: ResourceContext, prefix: string) {
    this.#context = context;
    this.#prefix = prefix;
  }

  protected get http(): HttpTransport {
    return this.#context.http;
  }

  /**
   * Sends an operation and returns its answer as the interface reads it. The request is made
   * before anything is sent, so that a bad path value throws at the call.
   */
  protected call<T>(row: Operation, parts: CallParts = {}, options?: CallOptions): Promise<T> {
    const spec = this.request(row, parts);
    return this.exchange<unknown>(spec, options).then(({ body }) => this.read<T>(spec, body, row.shape));
  }

  /** The request of one call, without the call's options. */
  protected request(row: Operation, parts: CallParts = {}): RequestSpec {
    const { shape: _shape, path, ...fixed } = row;
    const filled = path.replace(/\{(\w+)\}/g, (_hole, name: string) =>
      segment(this.pathValue(name, parts.path?.[name])),
    );
    return {
      ...fixed,
      path: this.#prefix + filled,
      ...(parts.query !== undefined ? { query: parts.query } : {}),
      ...(parts.body !== undefined ? { body: parts.body } : {}),
      ...(parts.headers !== undefined ? { headers: parts.headers } : {}),
    };
  }

  /** Sends a request with the call's options, and returns the whole answer. */
  protected exchange<T>(spec: RequestSpec, options: CallOptions | undefined): Promise<ApiResponse<T>> {
    return this.http.send<T>({ ...spec, ...callSpec(options) });
  }

  /** What a call returns of its answer's body: the body, checked against the row's shape. */
  protected read<T>(spec: RequestSpec, body: unknown, shape: Shape | undefined): T {
    return shape === undefined ? (body as T) : checkAnswer<T>(spec, body, shape);
  }

  /** The value of a path hole; an interface gives defaults for the holes it fills itself. */
  protected pathValue(name: string, value: PathValue): string | number {
    if (value === undefined) throw new TypeError(`no value for the path's {${name}}`);
    return value;
  }
}
