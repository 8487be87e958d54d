/**
 * `{ key: value }` when the value is given, `{}` otherwise: optional properties stay absent rather
 * than `undefined`, as `exactOptionalPropertyTypes`-style option objects expect.
 */
export function optionalProperty<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
