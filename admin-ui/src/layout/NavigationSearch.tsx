import Search from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { type ComponentType, useState } from 'react';
import { useTranslate } from 'react-admin';

/** The seed's cap on navigation search suggestions. */
export const maxSuggestions = 10;
export const searchBoxWidth = { xs: 160, sm: 260 };

type Autocomplete = ComponentType<{ typed: string }>;
let loading: Promise<Autocomplete> | undefined;
const loadAutocomplete = () => {
  loading ??= import('./NavigationAutocomplete').then((module) => module.NavigationAutocomplete);
  return loading;
};

/**
 * The toolbar's navigation search. MUI's Autocomplete is a tenth of the first screen's
 * JavaScript, so this plain box stands in for it until the pointer comes near or the box takes
 * focus; the autocomplete then replaces it with the focus and the text typed so far.
 */
export function NavigationSearch() {
  const translate = useTranslate();
  const [typed, setTyped] = useState('');
  const [Loaded, setLoaded] = useState<Autocomplete>();
  if (Loaded) return <Loaded typed={typed} />;
  const load = () => void loadAutocomplete().then((component) => setLoaded(() => component));
  return (
    <TextField
      size="small"
      variant="outlined"
      sx={{ width: searchBoxWidth }}
      placeholder={translate('app.search.placeholder')}
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      onPointerEnter={() => void loadAutocomplete()}
      onFocus={load}
      slotProps={{
        htmlInput: {
          role: 'combobox',
          'aria-expanded': false,
          'aria-autocomplete': 'list',
          'aria-label': translate('app.search.label'),
        },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
