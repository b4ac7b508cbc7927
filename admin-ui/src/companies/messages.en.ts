/** The operator's decisions about a company, in English (under `app.companies.decisions`). */
export const companyDecisionsEnglish = {
  verify_title: 'Verify %{name}?',
  verify_text:
    'Customers, payments and funding rounds open for this company. You can revoke the verification later, with a reason.',
  grant_title: 'Grant issuer status to %{name}?',
  grant_text: 'The company can then run funding rounds.',
  revoke_issuer_title: 'Revoke the issuer status of %{name}?',
  revoke_issuer_text: 'The company can no longer run funding rounds.',
  revoke_verification: 'Revoke verification',
  revoke_verification_title: 'Revoke the verification of %{name}?',
  revoke_verification_text:
    'The company goes back to awaiting verification: its customers, payments and funding rounds close until it is verified again.',
  suspend: 'Suspend',
  suspend_title: 'Suspend %{name}?',
  suspend_text:
    "The company's users are refused at sign-in and on every screen until you reinstate it.",
  reinstate: 'Reinstate',
  reinstate_title: 'Reinstate %{name}?',
  reinstate_text: "The company's users can sign in and work again.",
  reason: 'Reason',
  reason_help: "Required; kept in the company's history",
  confirm: 'Confirm',
  cancel: 'Cancel',
  close: 'Close',
  more: 'More actions for %{name}',
  history: 'History',
  history_title: 'History of %{name}',
  history_empty: 'No changes yet',
  by: 'by %{actor}',
  why: 'Reason: %{reason}',
  someone: 'an unknown user',
  suspended: 'Suspended',
  suspended_notice: 'Company suspended',
  reinstated_notice: 'Company reinstated',
  verification_revoked_notice: 'Verification revoked',
  events: {
    CompanyRegistered: 'Registered',
    CompanyVerified: 'Verified',
    CompanyVerificationRevoked: 'Verification revoked',
    IssuerStatusGranted: 'Issuer status granted',
    IssuerStatusRevoked: 'Issuer status revoked',
    CompanySuspended: 'Suspended',
    CompanyReinstated: 'Reinstated',
  },
};

export type CompanyDecisionMessages = typeof companyDecisionsEnglish;
