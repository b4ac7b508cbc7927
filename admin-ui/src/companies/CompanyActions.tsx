import MoreVert from '@mui/icons-material/MoreVert';
import { Button, IconButton, Menu, MenuItem, Stack } from '@mui/material';
import { useState } from 'react';
import {
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { CompanyRecord, PortalDataProvider } from '../dataAccess/dataProvider';
import { CompanyHistoryDialog } from './CompanyHistoryDialog';
import { decideOnCompany } from './companyApi';
import { DecisionDialog } from './DecisionDialog';

type Decision = 'verify' | 'grant' | 'revoke' | 'suspend' | 'reinstate' | 'revoke-verification';

const text = (key: string) => `app.companies.decisions.${key}`;

/** What each decision asks before it is sent, and what it says once done. */
const decisions: Record<
  Decision,
  { title: string; body: string; needsReason: boolean; done: string }
> = {
  verify: {
    title: text('verify_title'),
    body: text('verify_text'),
    needsReason: false,
    done: 'app.companies.verified_notice',
  },
  grant: {
    title: text('grant_title'),
    body: text('grant_text'),
    needsReason: false,
    done: 'app.companies.issuer_granted',
  },
  revoke: {
    title: text('revoke_issuer_title'),
    body: text('revoke_issuer_text'),
    needsReason: false,
    done: 'app.companies.issuer_revoked',
  },
  suspend: {
    title: text('suspend_title'),
    body: text('suspend_text'),
    needsReason: true,
    done: text('suspended_notice'),
  },
  reinstate: {
    title: text('reinstate_title'),
    body: text('reinstate_text'),
    needsReason: true,
    done: text('reinstated_notice'),
  },
  'revoke-verification': {
    title: text('revoke_verification_title'),
    body: text('revoke_verification_text'),
    needsReason: true,
    done: text('verification_revoked_notice'),
  },
};

function useSend(company: CompanyRecord) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const id = String(company.id);
  return (decision: Decision, reason: string) => {
    if (decision === 'verify') return dataProvider.verifyCompany(id);
    if (decision === 'grant' || decision === 'revoke') {
      return dataProvider.setIssuerStatus(id, decision === 'grant');
    }
    return decideOnCompany(id, decision, reason);
  };
}

/** The "more" menu: the decisions that undo, and the company's history. */
function MoreMenu({
  company,
  onChoose,
}: {
  company: CompanyRecord;
  onChoose: (choice: Decision | 'history') => void;
}) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (choice: Decision | 'history') => {
    setAnchor(null);
    onChoose(choice);
  };
  return (
    <>
      <IconButton
        size="small"
        aria-label={translate(text('more'), { name: company.name })}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose(company.isIssuer ? 'revoke' : 'grant')}>
          {translate(
            company.isIssuer ? 'app.companies.revoke_issuer' : 'app.companies.grant_issuer',
          )}
        </MenuItem>
        {company.verified && (
          <MenuItem onClick={() => choose('revoke-verification')}>
            {translate(text('revoke_verification'))}
          </MenuItem>
        )}
        <MenuItem onClick={() => choose(company.suspended ? 'reinstate' : 'suspend')}>
          {translate(text(company.suspended ? 'reinstate' : 'suspend'))}
        </MenuItem>
        <MenuItem onClick={() => choose('history')}>{translate(text('history'))}</MenuItem>
      </Menu>
    </>
  );
}

/** A company row's actions: each decision is confirmed first; undoing ones take a reason. */
export function CompanyActions() {
  const company = useRecordContext<CompanyRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState<Decision | 'history'>();
  const [isPending, setPending] = useState(false);
  const send = useSend(company ?? ({ id: '' } as CompanyRecord));
  if (!company) return null;
  const confirm = async (decision: Decision, reason: string) => {
    setPending(true);
    try {
      await send(decision, reason);
      notify(decisions[decision].done, { type: 'success' });
      setOpen(undefined);
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {!company.verified && (
        <Button
          size="small"
          variant="contained"
          onClick={() => setOpen('verify')}
          aria-label={`${translate('app.companies.verify')} ${company.name}`}
        >
          {translate('app.companies.verify')}
        </Button>
      )}
      <MoreMenu company={company} onChoose={setOpen} />
      {open === 'history' && (
        <CompanyHistoryDialog company={company} onClose={() => setOpen(undefined)} />
      )}
      {open && open !== 'history' && (
        <DecisionDialog
          title={translate(decisions[open].title, { name: company.name })}
          body={translate(decisions[open].body)}
          needsReason={decisions[open].needsReason}
          pending={isPending}
          onConfirm={(reason) => void confirm(open, reason)}
          onClose={() => setOpen(undefined)}
        />
      )}
    </Stack>
  );
}
