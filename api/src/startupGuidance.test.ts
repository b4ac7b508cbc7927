import { describe, expect, it } from 'vitest';
import { firstStartGuidance } from './startupGuidance';

const site = 'http://localhost:3000';

describe("the first start's guidance", () => {
  it('with a generated operator: its password once, and every curl step from registration to the company', () => {
    const text = firstStartGuidance({
      site,
      operator: { email: 'operator@issuer-portal.local', password: 'generated-Pass-1' },
      created: 'generated',
    });
    expect(text).toContain('  password: generated-Pass-1');
    expect(text).toContain('"email":"operator@issuer-portal.local","password":"generated-Pass-1"');
    for (const step of [
      `POST ${site}/api/auth/register`,
      `-G ${site}/api/operator/companies -H "Authorization: Bearer $OPERATOR_TOKEN"`,
      `POST ${site}/api/operator/companies/$COMPANY_ID/verify -H "Authorization: Bearer $OPERATOR_TOKEN"`,
      '"email":"cfo@maple.test","password":"long-and-unusual-pass"',
      `${site}/api/customers -H "Authorization: Bearer $TOKEN"`,
    ]) {
      expect(text).toContain(step);
    }
  });

  it('with OPERATOR_EMAIL: names the operator and never prints its password', () => {
    const text = firstStartGuidance({
      site,
      operator: { email: 'ops@platform.test' },
      created: 'from-env',
    });
    expect(text).toContain(
      'The platform operator ops@platform.test was created from OPERATOR_EMAIL.',
    );
    expect(text).toContain('"email":"ops@platform.test","password":"<operator password>"');
  });

  it('without any operator (DATABASE_URL, no OPERATOR_EMAIL): says how to create one', () => {
    const text = firstStartGuidance({ site, operator: undefined, created: undefined });
    expect(text).toContain(
      'npm run operator -- create --email <email> --password <a long password>',
    );
  });
});
