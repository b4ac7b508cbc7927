import { Box, Chip, Stack, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import {
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
import { listFailureProps } from '../layout/EmptyState';
import { PhoneTitle } from '../layout/PhoneTitle';
import { CompanyActions } from './CompanyActions';

/**
 * The operator's Companies screen: verify companies, grant or revoke issuer status, suspend or
 * reinstate them and revoke a verification (each confirmed), and each company's history.
 */
export default function CompanyList() {
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('app.companies.search')} />,
  ];
  return (
    <>
      <PhoneTitle title={translate('app.companies.title')} />
      <List
        {...listFailureProps}
        title={translate('app.companies.title')}
        filters={filters}
        sort={{ field: 'name', order: 'ASC' }}
        exporter={false}
        actions={false}
        // A wide table scrolls inside its card, never the page.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-actions': { flexWrap: 'wrap' } }}
      >
        <CompanyRows />
      </List>
    </>
  );
}

/**
 * Where the company stands, as chips: suspended (the reason on hover), verified or awaiting
 * verification, issuer. What the operator decides from, in one cell.
 */
function Standing() {
  const company = useRecordContext<CompanyRecord>();
  const translate = useTranslate();
  if (!company) return null;
  return (
    <Stack direction="row" component="span" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {company.suspended && (
        <Chip
          size="small"
          color="error"
          label={translate('app.companies.decisions.suspended')}
          title={company.suspensionReason ?? undefined}
        />
      )}
      {company.verified ? (
        <Chip size="small" color="success" label={translate('app.companies.verified')} />
      ) : (
        <Chip
          size="small"
          variant="outlined"
          label={translate('app.companies.awaiting_verification')}
        />
      )}
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
        primaryText={(company) => company.name}
        secondaryText={(company) => (
          <>
            <bdi>{company.symbol}</bdi> · <bdi dir="ltr">{company.contactEmail}</bdi>
            <Box component="span" sx={{ display: 'flex', mt: 0.5 }}>
              <Standing />
            </Box>
          </>
        )}
        // An element, not a function: SimpleList dims a function's text (meant for dates), and
        // dimmed buttons look disabled.
        tertiaryText={
          <Box component="span" sx={{ float: 'right' }}>
            <CompanyActions />
          </Box>
        }
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
      <DataTable.Col source="name" label="app.companies.name" />
      <DataTable.Col source="symbol" label="app.companies.symbol" />
      <DataTable.Col source="contactEmail" label="app.companies.contact_email" disableSort>
        {/* Wraps anywhere, and reads left to right even in an Arabic cell (the right-to-left
            style plugin would flip a CSS direction). */}
        <bdi dir="ltr">
          <EmailField source="contactEmail" sx={{ overflowWrap: 'anywhere' }} />
        </bdi>
      </DataTable.Col>
      {/* Sorted by verification: those awaiting it come first, ascending. */}
      <DataTable.Col source="verified" label="app.companies.standing">
        <Standing />
      </DataTable.Col>
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
