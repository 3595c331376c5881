/**
 * Replacing accessors and methods on a window's prototypes, and putting the
 * originals back.
 *
 * @module
 */

/** One replaced (or added) property, with what stood there before. */
interface Patch {
  readonly target: object;
  readonly key: PropertyKey;
  /** The original own descriptor, or undefined when the property was added. */
  readonly original: PropertyDescriptor | undefined;
}

/**
 * The properties one installation replaced, in order, so that `restore()`
 * puts back exactly what was there (in reverse order), including the absence
 * of a property that jsdom does not define (button.formAction).
 *
 * @example
 * ```ts
 * const patches = new PropertyPatches();
 * patches.accessor(document, "URL", () => "about:srcdoc");
 * patches.restore(); // document.URL is jsdom's again
 * ```
 */
export class PropertyPatches {
  readonly #patches: Patch[] = [];

  /**
   * Defines an accessor on `target`. `get`/`set` receive the original
   * descriptor's functions when they want to delegate.
   */
  accessor(
    target: object,
    key: PropertyKey,
    get: (this: object) => unknown,
    set?: (this: object, value: unknown) => void,
  ): void {
    const original = Object.getOwnPropertyDescriptor(target, key);
    this.#patches.push({ target, key, original });
    const descriptor: PropertyDescriptor = { get, configurable: true, enumerable: original?.enumerable ?? true };
    if (set !== undefined) descriptor.set = set;
    Object.defineProperty(target, key, descriptor);
  }

  /** Defines a method on `target`. */
  method(target: object, key: PropertyKey, value: (this: object, ...args: never[]) => unknown): void {
    const original = Object.getOwnPropertyDescriptor(target, key);
    this.#patches.push({ target, key, original });
    Object.defineProperty(target, key, {
      value,
      writable: true,
      configurable: true,
      enumerable: original?.enumerable ?? false,
    });
  }

  /** The descriptor that was in place before this object patched `key`, if any. */
  originalOf(target: object, key: PropertyKey): PropertyDescriptor | undefined {
    for (const patch of this.#patches) if (patch.target === target && patch.key === key) return patch.original;
    return Object.getOwnPropertyDescriptor(target, key);
  }

  /** Puts every original back, newest first. */
  restore(): void {
    for (let i = this.#patches.length - 1; i >= 0; i--) {
      const { target, key, original } = this.#patches[i]!;
      if (original === undefined) Reflect.deleteProperty(target, key);
      else Object.defineProperty(target, key, original);
    }
    this.#patches.length = 0;
  }
}
