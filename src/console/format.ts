// Formatting shared by the console's pages and its browser scripts (no server imports here: the
// scripts bundle this file).

/** A length of time for people: "42 s", "3 min 5 s". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
