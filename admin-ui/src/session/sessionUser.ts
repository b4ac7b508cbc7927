/** The session user the API answers on register, login and access-token (seed section 3). */
export interface SessionUser {
  role: string[];
  uid: string;
  from: string;
  data: {
    companyName: string;
    fiatBalanceCad: number;
    email: string;
    photoURL: string;
    displayName: string;
    terminalDeviceId: string;
    terminalDeviceId2: string;
    terminalDeviceId3: string;
    providers: string[];
    verified: 0 | 1;
    settings: Record<string, unknown>;
    shortcuts: string[];
  };
  isIssuer: boolean;
  activeTerminalId: string;
}

export interface SessionAnswer {
  user?: SessionUser;
  access_token?: string;
}

/** The terminals' device ids in slot order, empty slots left out. */
export function terminalDeviceIds(user: SessionUser): string[] {
  const { terminalDeviceId, terminalDeviceId2, terminalDeviceId3 } = user.data;
  return [terminalDeviceId, terminalDeviceId2, terminalDeviceId3].filter(Boolean);
}
