/** Sent (with the user's id, or '' for everyone) whenever what `getTokenStanding` reads changes. */
export const TOKEN_STANDING_CHANNEL = 'token_standing';

/**
 * Triggers that NOTIFY `token_standing` when a table behind a token's standing changes: a row
 * written or deleted (with its user's id), or the whole table emptied (a rebuild: '' = everyone).
 * `changed` narrows updates to the rows whose standing columns moved.
 */
export function tokenStandingTriggers(table: string, changed: string): string {
  return `
CREATE OR REPLACE FUNCTION token_standing_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('${TOKEN_STANDING_CHANNEL}', '');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('${TOKEN_STANDING_CHANNEL}', OLD.user_id);
  ELSE
    PERFORM pg_notify('${TOKEN_STANDING_CHANNEL}', NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER ${table}_standing_written AFTER INSERT OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION token_standing_notify();
CREATE OR REPLACE TRIGGER ${table}_standing_changed AFTER UPDATE ON ${table}
  FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION token_standing_notify();
CREATE OR REPLACE TRIGGER ${table}_standing_emptied AFTER TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION token_standing_notify();
`;
}

/**
 * A company suspended or reinstated changes the standing of every token of its users: the
 * companies table notifies '' (everyone; suspensions are rare) when `suspended` moves, or when
 * it is emptied (a rebuild).
 */
export function companyStandingTriggers(): string {
  return `
CREATE OR REPLACE FUNCTION company_standing_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${TOKEN_STANDING_CHANNEL}', '');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER companies_standing_changed AFTER UPDATE ON companies
  FOR EACH ROW WHEN (OLD.suspended IS DISTINCT FROM NEW.suspended)
  EXECUTE FUNCTION company_standing_notify();
CREATE OR REPLACE TRIGGER companies_standing_emptied AFTER TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION company_standing_notify();
`;
}
