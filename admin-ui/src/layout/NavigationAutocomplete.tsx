import Search from '@mui/icons-material/Search';
import { Autocomplete, InputAdornment, TextField } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useAutocompleteTexts } from '../i18n/autocompleteTexts';
import { foldForSearch } from '../i18n/searchFold';
import { visibleNavigation } from '../navigation/navigation';
import { useSessionUser } from '../session/sessionStore';

import { maxSuggestions, searchBoxWidth } from './NavigationSearch';

interface Suggestion {
  id: string;
  title: string;
  url: string;
}

/**
 * Finds a page of the navigation by its (translated) title. Loaded when the search box is first
 * used (NavigationSearch), taking over what was typed so far, and the focus when the box has it.
 */
export function NavigationAutocomplete({
  typed,
  autoFocus,
}: {
  typed: string;
  autoFocus: boolean;
}) {
  const [inputValue, setInputValue] = useState(typed);
  const translate = useTranslate();
  const navigate = useNavigate();
  const user = useSessionUser();
  const suggestions = useMemo<Suggestion[]>(
    () =>
      visibleNavigation(user).flatMap((group) =>
        group.children.map(({ id, title, url }) => ({ id, url, title: translate(title) })),
      ),
    [user, translate],
  );
  const label = translate('app.search.label');
  return (
    <Autocomplete
      options={suggestions}
      getOptionLabel={(option) => option.title}
      getOptionKey={(option) => option.id}
      filterOptions={(options, { inputValue }) => {
        const query = foldForSearch(inputValue.trim());
        return options
          .filter((option) => foldForSearch(option.title).includes(query))
          .slice(0, maxSuggestions);
      }}
      {...useAutocompleteTexts()}
      noOptionsText={translate('app.search.no_results')}
      onChange={(_event, option) => {
        if (option) navigate(option.url);
      }}
      value={null}
      inputValue={inputValue}
      onInputChange={(_event, value) => setInputValue(value)}
      blurOnSelect
      openOnFocus
      clearOnBlur
      size="small"
      sx={{ width: searchBoxWidth }}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus={autoFocus}
          placeholder={translate('app.search.placeholder')}
          variant="outlined"
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': label },
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
