/** The portal's screens, for the browser tests that hold every screen to the same bar. */

/** Every screen of a verified issuer's shell (App.tsx's routes and the navigation's items). */
export const issuerScreens = (customerId: string) => [
  '/profile',
  '/pages/profile',
  '/dashboard',
  '/documents',
  '/customers/all',
  '/customers/hot',
  '/customers/starred',
  // A search that finds nothing: "No customers found", in the view of hot leads too.
  `/customers/all?filter=${encodeURIComponent('{"q":"nobody-here"}')}`,
  `/customers/hot?filter=${encodeURIComponent('{"q":"nobody-here"}')}`,
  `/customers/all/${customerId}`,
  '/transactions/all',
  '/pendingpayments/all',
  '/etransfers/all',
  '/etransfers/unmatched',
  '/nftorders/all',
  '/subscriptions/all',
  '/subscriptions/invoices',
  '/audit',
  '/fundingrounds',
  '/fundingrounds/round/1/first-round',
  '/captable',
];

export const guestScreens = ['/login', '/register', '/errors/error-404', '/errors/error-500'];
