/**
 * Cases where the kernel is known to differ from bash, with the reason. The list only shrinks:
 * a listed case that starts agreeing fails the suite until it is taken off.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};
