/**
 * An empty array made for objects.
 *
 * @module
 */

/**
 * An empty array whose elements kind is already that of objects.
 *
 * Optimisation: V8 makes `[]` an array of small integers and changes its
 * kind on the first object pushed; code optimised for the first document's
 * arrays (already changed) deoptimises on the next document's (not yet),
 * once per list and function, and is compiled again.
 *
 * @example
 * ```ts
 * const tags = objectList<{ name: string }>();
 * tags.push({ name: "a" }); // no change of elements kind
 * ```
 */
export function objectList<T extends object>(): T[] {
  const list: (T | null)[] = [null];
  list.pop();
  return list as T[];
}
