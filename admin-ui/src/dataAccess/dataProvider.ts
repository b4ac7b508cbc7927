import simpleRestProvider from 'ra-data-simple-rest';
import type {
  DataProvider,
  GetListParams,
  GetListResult,
  RaRecord,
  UpdateParams,
} from 'react-admin';
import { apiUrl, callApi, httpClient } from '../session/http';

/** Resources whose API path is not their name. */
const apiPaths: Record<string, string> = { companies: 'operator/companies' };
const apiPath = (resource: string) => apiPaths[resource] ?? resource;

export interface CompanyRecord extends RaRecord {
  name: string;
  symbol: string;
  verified: boolean;
  isIssuer: boolean;
  /** Suspended by the operator, and why. */
  suspended: boolean;
  suspensionReason: string | null;
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

/**
 * The transactions list as simple-rest asks for it, keeping what simple-rest drops: the exact net
 * total of every matching row (`X-Total-Net-Cents`), answered as the list's `meta.netCents`.
 */
async function listTransactions(params: GetListParams) {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
  const { field, order } = params.sort ?? { field: 'createdAt', order: 'DESC' };
  const query = new URLSearchParams({
    sort: JSON.stringify([field, order]),
    range: JSON.stringify([(page - 1) * perPage, page * perPage - 1]),
    filter: JSON.stringify(params.filter ?? {}),
  });
  const { headers, json } = await httpClient(`${apiUrl}/transactions?${query}`, {
    signal: params.signal,
  });
  const net = headers.get('X-Total-Net-Cents');
  return {
    data: json as RaRecord[],
    total: Number(headers.get('Content-Range')?.split('/').pop() ?? 0),
    meta: { netCents: net === null ? null : Number(net) },
  };
}

const companyCommand = (id: string, action: string, body?: unknown) =>
  callApi<CompanyRecord>(`/operator/companies/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
  }).then((data) => ({ data }));

export const dataProvider: PortalDataProvider = {
  getList: <RecordType extends RaRecord>(resource: string, params: GetListParams) =>
    resource === 'transactions'
      ? (listTransactions(params) as Promise<GetListResult<RecordType>>)
      : rest.getList<RecordType>(apiPath(resource), params),
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
