import type { SvgIconComponent } from '@mui/icons-material';
import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useListContext, useTranslate } from 'react-admin';

/** A designed empty state: the screen's icon, what is missing, and how it comes to be there. */
export function EmptyState({
  icon: Icon,
  title,
  hint,
}: {
  icon: SvgIconComponent;
  title: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <Box component="section" sx={{ py: 6, px: 2, textAlign: 'center' }}>
      <Icon sx={{ fontSize: 56, color: 'text.disabled' }} />
      <Typography variant="h6" component="p">
        {title}
      </Typography>
      {hint && <Typography color="text.secondary">{hint}</Typography>}
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
