import { AutocompleteInput, type AutocompleteInputProps, useTranslate } from 'react-admin';

/**
 * What an autocomplete's buttons say to a screen reader (open, close, clear) and while it loads:
 * MUI says them in English unless told.
 */
export function useAutocompleteTexts() {
  const translate = useTranslate();
  return {
    openText: translate('app.autocomplete.open'),
    closeText: translate('app.autocomplete.close'),
    clearText: translate('app.autocomplete.clear'),
    loadingText: translate('app.autocomplete.loading'),
  };
}

/** react-admin's AutocompleteInput with its buttons named in the reader's language. */
export function TranslatedAutocompleteInput(props: AutocompleteInputProps) {
  return <AutocompleteInput {...useAutocompleteTexts()} {...props} />;
}
