/**
 * The external-link checker's error for misuse (a bad option or target);
 * what happens on the network is an outcome, never this error.
 *
 * @module
 */

import { brandedError, brandGuard } from "../../core/branded-error.ts";

/**
 * A misuse of the external-link checker, its message naming the option or
 * value. Recognise it with {@link isExternalCheckerError}, across realms too.
 *
 * @example
 * ```ts
 * try {
 *   createExternalChecker({ perHost: 0 });
 * } catch (error) {
 *   isExternalCheckerError(error); // true
 *   (error as Error).message; // "perHost: not a positive integer: 0"
 * }
 * ```
 */
export class ExternalCheckerError extends brandedError("ExternalCheckerError", Error) {}

/**
 * Whether `value` is an {@link ExternalCheckerError} from any realm.
 *
 * @example
 * ```ts
 * isExternalCheckerError(new ExternalCheckerError("retries: not a non-negative integer: -1")); // true
 * isExternalCheckerError(new Error("x")); // false
 * ```
 */
export const isExternalCheckerError = brandGuard<ExternalCheckerError>("ExternalCheckerError");
