import { Chip, Stack, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import {
  BooleanField,
  DataTable,
  DateField,
  EmailField,
  List,
  NumberField,
  SearchInput,
  SimpleList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { CompanyRecord } from '../dataAccess/dataProvider';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { CompanyActions } from './CompanyActions';

/** The company's name, and a "Suspended" mark (with the reason on hover) while it is. */
function NameAndStanding() {
  const company = useRecordContext<CompanyRecord>();
  const translate = useTranslate();
  if (!company) return null;
  return (
    <>
      {company.name}
      {company.suspended && (
        <Chip
          size="small"
          color="error"
          label={translate('app.companies.decisions.suspended')}
          title={company.suspensionReason ?? undefined}
          sx={{ display: 'flex', width: 'fit-content', mt: 0.5 }}
        />
      )}
    </>
  );
}

/**
 * The operator's Companies screen: verify companies, grant or revoke issuer status, suspend or
 * reinstate them and revoke a verification (each confirmed), and each company's history.
 */
export default function CompanyList() {
  const translate = useTranslate();
  useDocumentTitle(translate('app.companies.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('app.companies.search')} />,
  ];
  return (
    <List
      title={translate('app.companies.title')}
      filters={filters}
      sort={{ field: 'name', order: 'ASC' }}
      exporter={false}
      // A wide table scrolls inside its card, never the page.
      sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-actions': { flexWrap: 'wrap' } }}
    >
      <CompanyRows />
    </List>
  );
}

/** What the operator decides from, in one line: verified, issuer. */
function Standing() {
  const company = useRecordContext<CompanyRecord>();
  const translate = useTranslate();
  if (!company) return null;
  return (
    <Stack direction="row" spacing={1} component="span" sx={{ mt: 0.5 }}>
      {company.verified && <Chip size="small" label={translate('app.companies.verified')} />}
      {company.isIssuer && <Chip size="small" label={translate('app.companies.issuer')} />}
    </Stack>
  );
}

/**
 * The companies as a table, or on a phone as a one-column list (name, symbol, contact email,
 * standing and the same actions); the table's columns would not fit there.
 */
function CompanyRows() {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  if (small) {
    return (
      <SimpleList<CompanyRecord>
        rowClick={false}
        primaryText={() => <NameAndStanding />}
        secondaryText={(company) => (
          <>
            <bdi>{company.symbol}</bdi> · <bdi>{company.contactEmail}</bdi>
            <Standing />
          </>
        )}
        tertiaryText={() => <CompanyActions />}
        rowSx={() => ({ overflowWrap: 'anywhere', flexWrap: 'wrap' })}
      />
    );
  }
  return (
    <DataTable
      bulkActionButtons={false}
      rowClick={false}
      sx={{ maxWidth: '100%', '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
    >
      <DataTable.Col source="name" label="app.companies.name">
        <NameAndStanding />
      </DataTable.Col>
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
  );
}
