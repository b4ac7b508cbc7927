import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** Label and value pairs as a description list. */
export function DetailList({ rows }: { rows: [label: string, value: ReactNode][] }) {
  const translate = useTranslate();
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        // minmax(0, 1fr): a long value (an e-mail, a company's full name) wraps, never cut off.
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '200px minmax(0, 1fr)' },
        gap: { xs: 0, sm: 1 },
        m: 0,
      }}
    >
      {rows.map(([label, value], index) => (
        <Box key={label} sx={{ display: 'contents' }}>
          {/* Stacked on a phone: each label sits with its value, apart from the pair above. */}
          <Typography
            component="dt"
            color="text.secondary"
            sx={{
              typography: { xs: 'body2', sm: 'body1' },
              mt: { xs: index === 0 ? 0 : 2, sm: 0 },
            }}
          >
            {translate(label)}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
