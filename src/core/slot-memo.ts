/**
 * A small direct-mapped memo: a fixed number of slots, each remembering the
 * last string key it was given and its value; a key that lands in a taken
 * slot replaces what was there.
 *
 * Optimisation: the slot comes from the key's length and two of its code
 * units, so no key is hashed whole; where most keys are distinct, a Map
 * costs more than it saves.
 *
 * @module
 */

/**
 * A memo of `slots` (a power of two) string keys and their values. A value
 * may be anything but `undefined`, which {@link SlotMemo.get} returns for
 * a key it does not hold.
 *
 * @example
 * ```ts
 * const memo = new SlotMemo<string | null>(512);
 * memo.get("a.html"); // undefined
 * memo.set("a.html", "https://example.com/a.html");
 * memo.get("a.html"); // "https://example.com/a.html"
 * memo.clear();
 * memo.get("a.html"); // undefined
 * ```
 */
export class SlotMemo<V> {
  readonly #keys: (string | undefined)[];
  readonly #values: (V | undefined)[];
  readonly #mask: number;

  constructor(slots: number) {
    this.#keys = new Array<string | undefined>(slots).fill(undefined);
    this.#values = new Array<V | undefined>(slots).fill(undefined);
    this.#mask = slots - 1;
  }

  #slot(key: string): number {
    const n = key.length;
    return n === 0 ? 0 : (n * 31 + key.charCodeAt(n - 1) * 7 + key.charCodeAt(n >> 1)) & this.#mask;
  }

  /** The value remembered for `key`, or undefined. */
  get(key: string): V | undefined {
    const slot = this.#slot(key);
    return this.#keys[slot] === key ? this.#values[slot] : undefined;
  }

  /** Forgets every key (the values are let go as their slots are taken again). */
  clear(): void {
    this.#keys.fill(undefined);
  }

  /** Remembers `value` for `key`, in place of whatever its slot held. */
  set(key: string, value: V): void {
    const slot = this.#slot(key);
    this.#keys[slot] = key;
    this.#values[slot] = value;
  }
}
