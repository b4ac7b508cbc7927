import { Typography } from '@mui/material';

/**
 * A list's heading on a phone, where the app bar has no room for the title beside the search and
 * its buttons (it shows the title from 600 px up). Screens with a heading of their own need none.
 */
export function PhoneTitle({ title }: { title: string }) {
  return (
    <Typography
      variant="h5"
      component="h1"
      sx={{ display: { xs: 'block', sm: 'none' }, mt: 2, overflowWrap: 'anywhere' }}
    >
      {title}
    </Typography>
  );
}
