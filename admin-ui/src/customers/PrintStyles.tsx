import { GlobalStyles } from '@mui/material';

/**
 * Printing a customer page (a reviewer's record of an as-of view): the page's content only,
 * without the toolbar, the navigation, the picker and the commands, on white paper.
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          '.MuiAppBar-root, .MuiDrawer-root, [data-testid="sidebar"], [data-print="hide"], .MuiSnackbar-root':
            { display: 'none !important' },
          'body, #root, main, [data-testid="layout"]': {
            background: 'white !important',
            margin: '0 !important',
            padding: '0 !important',
          },
          '[data-testid="layout"] *': { maxWidth: 'none !important' },
          '.MuiCard-root': { boxShadow: 'none !important', breakInside: 'avoid' },
        },
      }}
    />
  );
}
