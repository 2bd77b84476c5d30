// Which web permissions the window gets: none, except writing the clipboard (the "copy trigger URL"
// buttons) from the app's own page. Camera, microphone, notifications (Steward's come from the main
// process), geolocation and the rest are refused, for every page.
import { type AppPages, isAppUrl } from './app-url';

const grantedToApp = new Set(['clipboard-sanitized-write']);

export function allowPermission(permission: string, requestingUrl: string | undefined, pages: AppPages): boolean {
  return grantedToApp.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl, pages);
}
