import { Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/**
 * A list's views as tabs that are links (`/<resource>/<view>`), so a view is in the address:
 * labelled `app.<resource>.views.<view>`, scrollable on a phone.
 */
export function ViewTabs({
  resource,
  views,
  view,
}: {
  resource: string;
  views: readonly string[];
  view: string;
}) {
  const translate = useTranslate();
  return (
    <Tabs
      value={view}
      variant="scrollable"
      allowScrollButtonsMobile
      aria-label={translate(`app.${resource}.title`)}
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      {views.map((name) => (
        <Tab
          key={name}
          value={name}
          label={translate(`app.${resource}.views.${name}`)}
          component={Link}
          to={`/${resource}/${name}`}
        />
      ))}
    </Tabs>
  );
}
