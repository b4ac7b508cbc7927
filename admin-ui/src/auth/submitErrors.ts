import { fieldErrors } from '../session/http';

/**
 * What a failed submit gives back to a form: the API's field messages go under
 * their fields; anything else (too many attempts, the server down) is a toast.
 */
export function formErrorsOrToast(error: unknown, toast: (message: string) => void) {
  const fields = fieldErrors(error);
  if (Object.keys(fields).length > 0) return fields;
  toast(error instanceof Error ? error.message : String(error));
  return undefined;
}
