import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  DataTable,
  DateField,
  EmailField,
  List,
  NumberField,
  SearchInput,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { CompanyRecord, PortalDataProvider } from '../dataAccess/dataProvider';

const doneMessages = {
  verify: 'app.companies.verified_notice',
  grant: 'app.companies.issuer_granted',
  revoke: 'app.companies.issuer_revoked',
} as const;

function CompanyActions() {
  const company = useRecordContext<CompanyRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [isPending, setPending] = useState(false);
  if (!company) return null;
  const mutate = async (action: keyof typeof doneMessages) => {
    setPending(true);
    try {
      const id = String(company.id);
      await (action === 'verify'
        ? dataProvider.verifyCompany(id)
        : dataProvider.setIssuerStatus(id, action === 'grant'));
      notify(doneMessages[action], { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      {!company.verified && (
        <Button
          size="small"
          variant="contained"
          disabled={isPending}
          onClick={() => void mutate('verify')}
          aria-label={`${translate('app.companies.verify')} ${company.name}`}
        >
          {translate('app.companies.verify')}
        </Button>
      )}
      <Button
        size="small"
        variant="outlined"
        disabled={isPending}
        onClick={() => void mutate(company.isIssuer ? 'revoke' : 'grant')}
        aria-label={`${translate(company.isIssuer ? 'app.companies.revoke_issuer' : 'app.companies.grant_issuer')} ${company.name}`}
      >
        {translate(company.isIssuer ? 'app.companies.revoke_issuer' : 'app.companies.grant_issuer')}
      </Button>
    </Stack>
  );
}

/** The operator's Companies screen: verify companies, grant or revoke issuer status. */
export default function CompanyList() {
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('app.companies.search')} />,
  ];
  return (
    <List
      title={translate('app.companies.title')}
      filters={filters}
      sort={{ field: 'name', order: 'ASC' }}
      exporter={false}
    >
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="name" label="app.companies.name" />
        <DataTable.Col source="symbol" label="app.companies.symbol" />
        <DataTable.Col
          source="contactEmail"
          label="app.companies.contact_email"
          field={EmailField}
          disableSort
        />
        <DataTable.Col source="verified" label="app.companies.verified" field={BooleanField} />
        <DataTable.Col source="isIssuer" label="app.companies.issuer" field={BooleanField} />
        <DataTable.Col
          source="terminalCount"
          label="app.companies.terminals"
          field={NumberField}
          disableSort
        />
        <DataTable.Col source="registeredAt" label="app.companies.registered" field={DateField} />
        <DataTable.Col label="" disableSort>
          <CompanyActions />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
