// Whether the person plays by touch: then the words name taps, not keys,
// and the board zooms so that every choice is big enough for a finger.

/** Whether the main pointer is a finger (a phone, a tablet). */
export function touchScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/** The smallest tap target a finger is offered, in CSS pixels. */
export const TAP_PX = 32;
