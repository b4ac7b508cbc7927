import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** One labelled line of a detail drawer: the label at the start, the value at the end. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.75 }}>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        sx={{ textAlign: 'end', overflowWrap: 'anywhere' }}
      >
        {children}
      </Typography>
    </Box>
  );
}
