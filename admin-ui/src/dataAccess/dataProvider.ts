import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, RaRecord, UpdateParams } from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';

/** Resources whose API path is not their name. */
const apiPaths: Record<string, string> = { companies: 'operator/companies' };
const apiPath = (resource: string) => apiPaths[resource] ?? resource;

export interface CompanyRecord extends RaRecord {
  name: string;
  symbol: string;
  verified: boolean;
  isIssuer: boolean;
  terminalCount: number;
  fiatBalanceCad: number;
  registeredAt: string;
  /** The email of the admin who registered the company. */
  contactEmail: string | null;
}

export interface CompanyProfileChange {
  companyName: string;
}

/** Commands that are not plain CRUD, beside the react-admin methods. */
export interface PortalDataProvider extends DataProvider {
  verifyCompany(id: string): Promise<{ data: CompanyRecord }>;
  setIssuerStatus(id: string, isIssuer: boolean): Promise<{ data: CompanyRecord }>;
}

const rest = simpleRestProvider(apiUrl, httpClient);

/** A terminal's only editable field is its name, sent with PATCH. */
async function renameTerminal(params: UpdateParams) {
  const { json } = await httpClient(`${apiUrl}/terminals/${encodeURIComponent(params.id)}`, {
    method: 'PATCH',
    body: JSON.stringify({ name: params.data.name }),
  });
  return { data: json };
}

const companyCommand = (id: string, action: string, body?: unknown) =>
  callApi<CompanyRecord>(`/operator/companies/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
  }).then((data) => ({ data }));

export const dataProvider: PortalDataProvider = {
  getList: (resource, params) => rest.getList(apiPath(resource), params),
  getOne: (resource, params) => rest.getOne(apiPath(resource), params),
  getMany: (resource, params) => rest.getMany(apiPath(resource), params),
  getManyReference: (resource, params) => rest.getManyReference(apiPath(resource), params),
  create: (resource, params) => rest.create(apiPath(resource), params),
  update: (resource, params) =>
    resource === 'terminals' ? renameTerminal(params) : rest.update(apiPath(resource), params),
  updateMany: (resource, params) => rest.updateMany(apiPath(resource), params),
  delete: (resource, params) => rest.delete(apiPath(resource), params),
  deleteMany: (resource, params) => rest.deleteMany(apiPath(resource), params),
  verifyCompany: (id) => companyCommand(id, 'verify'),
  setIssuerStatus: (id, isIssuer) => companyCommand(id, 'issuer', { isIssuer }),
};
