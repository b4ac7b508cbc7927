import { callApi } from './http';
import { replaceSessionUser, sessionUser } from './sessionStore';
import type { SessionUser } from './sessionUser';

/** `GET /api/profile/about` (seed section 3). */
export interface ProfileAbout {
  avatar: string;
  companyName: string;
  fiatBalanceCad: number;
  email: string;
  terminalDeviceId: string;
  terminalDeviceId2: string;
  terminalDeviceId3: string;
  providers: string[];
  verified: 0 | 1;
  isIssuer: boolean;
}

export function withProfile(user: SessionUser, profile: ProfileAbout): SessionUser {
  const { avatar, isIssuer, ...data } = profile;
  return { ...user, isIssuer, data: { ...user.data, ...data, photoURL: avatar } };
}

/**
 * Reloads the company's profile into the session: the operator may have verified the company
 * or granted issuer status since sign-in, and terminals change from the profile page.
 */
export async function refreshProfile(): Promise<ProfileAbout> {
  const profile = await callApi<ProfileAbout>('/profile/about');
  const user = sessionUser();
  if (user) replaceSessionUser(withProfile(user, profile));
  return profile;
}
