/**
 * What the chat and the search say when the server answers 401 while the page is open: the session ended (it expired
 * or was signed out elsewhere), so asking again cannot help; a reload brings the sign-in page.
 */
export const sessionEndedMessage = 'Your session has ended. Reload the page and sign in again.';
