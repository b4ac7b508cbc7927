import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import {
  changeInvestorStatus,
  changeLeadStatus,
  type DetailedCustomer,
  type NextStatus,
} from './customerApi';
import {
  investorStatusLabel,
  type LeadStatus,
  leadStatuses,
  leadStatusLabel,
  statusKey,
} from './statuses';

const kindColor = { forward: 'primary', failure: 'error', reversal: 'warning' } as const;

/**
 * What a next-step button says: the action ("Approve KYC", "Cancel"), or for a reversal "Back to"
 * the earlier status. The status's own name ("KYC Complete", "Cancelled") is what the investor is
 * in, not something to press.
 */
function useStepLabel() {
  const translate = useTranslate();
  return (next: NextStatus) =>
    next.kind === 'reversal'
      ? translate('app.customers.status_actions.back_to', {
          status: translate(investorStatusLabel(next.status)),
        })
      : translate(`app.customers.status_actions.${statusKey(next.status)}`);
}

/** Confirms a move to `step`, with the reason box (required for failures and reversals). */
function StatusChangeDialog({
  customer,
  step,
  onClose,
}: {
  customer: DetailedCustomer;
  step: NextStatus;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [reason, setReason] = useState('');
  const [evidence, setEvidence] = useState('');
  const [pending, setPending] = useState(false);
  const missingReason = step.reasonRequired && !reason.trim();
  const status = translate(investorStatusLabel(step.status));
  const confirm = async () => {
    setPending(true);
    try {
      await changeInvestorStatus(customer.id, {
        status: step.status,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(evidence.trim() ? { evidence: evidence.trim() } : {}),
      });
      notify('app.customers.notices.status_changed', { type: 'success', messageArgs: { status } });
      onClose();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setPending(false);
      refresh();
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="status-change">
      <DialogTitle id="status-change">
        {translate('app.customers.page.change_title', { status })}
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label={translate('app.customers.page.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required={step.reasonRequired}
          error={missingReason && reason !== ''}
          helperText={step.reasonRequired ? translate('app.customers.page.reason_required') : ' '}
          multiline
          minRows={2}
          sx={{ mt: 1 }}
        />
        <TextField
          label={translate('app.customers.page.evidence')}
          value={evidence}
          onChange={(event) => setEvidence(event.target.value)}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.customers.actions.cancel')}</Button>
        <Button
          variant="contained"
          disabled={missingReason || pending}
          onClick={() => void confirm()}
        >
          {translate('app.customers.page.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function LeadStatusChooser({ customer }: { customer: DetailedCustomer }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const choose = async (leadStatus: LeadStatus | null) => {
    if (!leadStatus || leadStatus === customer.leadStatus) return;
    try {
      await changeLeadStatus(customer.id, leadStatus);
      notify('app.customers.notices.lead_changed', {
        type: 'success',
        messageArgs: { status: translate(leadStatusLabel(leadStatus)) },
      });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      refresh();
    }
  };
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={customer.leadStatus}
      onChange={(_event, value: LeadStatus | null) => void choose(value)}
      aria-label={translate('app.customers.fields.leadStatus')}
    >
      {leadStatuses.map((status) => (
        <ToggleButton key={status} value={status}>
          {translate(leadStatusLabel(status))}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

/**
 * The investor status and the workflow's next steps as buttons (the server's transition table,
 * answered with the customer), and the lead status. Read-only for a compliance reviewer.
 */
export function InvestorStatusPanel({
  customer,
  canChange,
}: {
  customer: DetailedCustomer;
  canChange: boolean;
}) {
  const translate = useTranslate();
  const stepLabel = useStepLabel();
  const [step, setStep] = useState<NextStatus>();
  return (
    <Card component="section" aria-labelledby="status-title">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography id="status-title" variant="h6" component="h2">
          {translate('app.customers.page.status_title')}
        </Typography>
        <Typography data-testid="investor-status">
          {translate('app.customers.page.current_status', {
            status: translate(investorStatusLabel(customer.investorStatus)),
          })}
        </Typography>
        {canChange && (
          <Box>
            <Typography
              id="next-steps-title"
              variant="subtitle2"
              color="text.secondary"
              gutterBottom
            >
              {translate('app.customers.page.next_steps')}
            </Typography>
            {customer.nextInvestorStatuses.length === 0 ? (
              <Alert severity="info">{translate('app.customers.page.no_next_steps')}</Alert>
            ) : (
              <Stack
                direction="row"
                role="group"
                aria-labelledby="next-steps-title"
                sx={{ flexWrap: 'wrap', gap: 1 }}
              >
                {customer.nextInvestorStatuses.map((next) => (
                  <Button
                    key={next.status}
                    size="small"
                    variant={next.kind === 'forward' ? 'contained' : 'outlined'}
                    color={kindColor[next.kind]}
                    onClick={() => setStep(next)}
                    title={translate(`app.customers.page.kind_${next.kind}`)}
                  >
                    {stepLabel(next)}
                  </Button>
                ))}
              </Stack>
            )}
          </Box>
        )}
        <Box>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            {translate('app.customers.fields.leadStatus')}
          </Typography>
          {canChange ? (
            <LeadStatusChooser customer={customer} />
          ) : (
            <Chip label={translate(leadStatusLabel(customer.leadStatus))} />
          )}
        </Box>
      </CardContent>
      {step && (
        <StatusChangeDialog customer={customer} step={step} onClose={() => setStep(undefined)} />
      )}
    </Card>
  );
}
