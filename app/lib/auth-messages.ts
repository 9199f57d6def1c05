/** Shown on the sign-in page when the app's sign-in link (app → web) cannot be used. */
export const WEB_SESSION_TOKEN_INVALID =
  "This sign-in link from the app has expired or was already used. Log in here instead.";
