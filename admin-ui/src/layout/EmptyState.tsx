import type { SvgIconComponent } from '@mui/icons-material';
import CloudOff from '@mui/icons-material/CloudOff';
import Refresh from '@mui/icons-material/Refresh';
import { Box, Button, type TablePaginationProps, Typography } from '@mui/material';
import type { ComponentProps, ReactNode } from 'react';
import { Pagination, PaginationActions, useListContext, useTranslate } from 'react-admin';

/** A designed empty state: the screen's icon, what is missing, and how it comes to be there. */
export function EmptyState({
  icon: Icon,
  title,
  hint,
  children,
}: {
  icon: SvgIconComponent;
  title: ReactNode;
  hint?: ReactNode;
  /** What the reader can do about it (a button). */
  children?: ReactNode;
}) {
  return (
    <Box component="section" sx={{ py: 6, px: 2, textAlign: 'center' }}>
      <Icon sx={{ fontSize: 56, color: 'text.disabled' }} />
      <Typography variant="h6" component="p">
        {title}
      </Typography>
      {hint && <Typography color="text.secondary">{hint}</Typography>}
      {children && <Box sx={{ mt: 2 }}>{children}</Box>}
    </Box>
  );
}

/**
 * A react-admin list that could not load (after the query's retries): in place of its rows, which
 * would otherwise read as an empty list, what went wrong and a button to try again.
 */
export function ListError() {
  const translate = useTranslate();
  const { error, refetch } = useListContext();
  return (
    <Box role="alert">
      <EmptyState
        icon={CloudOff}
        title={translate('app.errors.list_failed')}
        hint={(error as Error | null)?.message}
      >
        <Button variant="outlined" startIcon={<Refresh />} onClick={() => void refetch()}>
          {translate('app.errors.retry')}
        </Button>
      </EmptyState>
    </Box>
  );
}

/**
 * A react-admin list's empty state (message keys): `empty` and its `hint`, or `noMatch` when
 * filters are set. Nothing when the list failed to load: its error says so.
 */
export function ListEmpty({
  icon,
  empty,
  noMatch,
  hint,
}: {
  icon: SvgIconComponent;
  empty: string;
  noMatch?: string;
  hint?: string;
}) {
  const translate = useTranslate();
  const { filterValues, error } = useListContext();
  if (error) return null;
  const filtered = noMatch !== undefined && Object.keys(filterValues).length > 0;
  return (
    <EmptyState
      icon={icon}
      title={translate(filtered ? noMatch : empty)}
      hint={hint && !filtered ? translate(hint) : undefined}
    />
  );
}

/**
 * The list's pages, except when it failed to load: a page count of nothing would mislead.
 * react-admin names the phone's arrows and the pages' navigation only in English: both are
 * named here in the reader's language.
 */
function PagesUnlessFailed() {
  const { error, total } = useListContext();
  const translate = useTranslate();
  if (error) return null;
  // Handed on to MUI's TablePagination, which react-admin's props type does not list.
  const arrows: Pick<TablePaginationProps, 'getItemAriaLabel'> = {
    getItemAriaLabel: (type) => translate(`ra.navigation.${type}`),
  };
  return <Pagination {...arrows} actions={total == null ? undefined : NamedPaginationActions} />;
}

function NamedPaginationActions(props: ComponentProps<typeof PaginationActions>) {
  const translate = useTranslate();
  return <PaginationActions {...props} aria-label={translate('app.pagination')} />;
}

/**
 * A react-admin list's props for failing to load: the error in place of its rows, without the
 * toast react-admin shows beside it (it said the same twice) and without its pages.
 */
export const listFailureProps = {
  error: <ListError />,
  pagination: <PagesUnlessFailed />,
  queryOptions: { onError: () => undefined },
};
