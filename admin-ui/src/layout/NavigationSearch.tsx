import Search from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { type ComponentType, type FocusEvent, useState } from 'react';
import { useTranslate } from 'react-admin';

/** The seed's cap on navigation search suggestions. */
export const maxSuggestions = 10;
export const searchBoxWidth = { xs: 160, sm: 260 };

type Autocomplete = ComponentType<{ typed: string; autoFocus: boolean }>;
let loading: Promise<Autocomplete> | undefined;
const loadAutocomplete = () => {
  loading ??= import('./NavigationAutocomplete').then((module) => module.NavigationAutocomplete);
  return loading;
};

/**
 * The toolbar's navigation search. MUI's Autocomplete is a tenth of the first screen's
 * JavaScript, so this plain box stands in for it until the pointer comes near or the box takes
 * focus; the autocomplete then replaces it with the text typed so far, and with the focus if the
 * box still has it (a person who tabbed on meanwhile keeps their place).
 */
export function NavigationSearch() {
  const translate = useTranslate();
  const [typed, setTyped] = useState('');
  const [loaded, setLoaded] = useState<{ Autocomplete: Autocomplete; focused: boolean }>();
  if (loaded) return <loaded.Autocomplete typed={typed} autoFocus={loaded.focused} />;
  const load = (event: FocusEvent<HTMLInputElement>) => {
    const box = event.target;
    void loadAutocomplete().then((Autocomplete) =>
      setLoaded({ Autocomplete, focused: document.activeElement === box }),
    );
  };
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
