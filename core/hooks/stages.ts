/**
 * Tap order for every hook. Pass as `{ name, stage }` when tapping; never rely on registration order.
 * Lower runs first.
 */
export const Stage = Object.freeze({
  /** Core's own taps that must see the request first (e.g. license check). */
  CORE_FIRST: -1000,
  /** Before the platform's own taps: adjust what the platform will see. */
  BEFORE_PLATFORM: -100,
  /** The platform plugin's taps. */
  PLATFORM: 0,
  /** After the platform: observe or decorate its result. */
  AFTER_PLATFORM: 100,
  /** Core's fallbacks that only run when nothing else answered. */
  CORE_FALLBACK: 1000,
});
