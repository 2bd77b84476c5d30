// What the navigation's "Needs you" entry says to a screen reader (its own file: the navigation
// must not pull in the lazily loaded view).
export const needsYouLabel = (count: number): string => (count === 0 ? 'Needs you, nothing waiting' : `Needs you, ${count} waiting`);
