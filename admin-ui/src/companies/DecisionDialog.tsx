import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslate } from 'react-admin';

const text = (key: string) => `app.companies.decisions.${key}`;

/**
 * Asks the operator to confirm a decision about a company before it is sent; `needsReason` adds
 * the reason box the decision cannot be sent without.
 */
export function DecisionDialog({
  title,
  body,
  needsReason,
  pending,
  onConfirm,
  onClose,
}: {
  title: string;
  body: string;
  needsReason: boolean;
  pending: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const [reason, setReason] = useState('');
  const missing = needsReason && reason.trim() === '';
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{body}</DialogContentText>
        {needsReason && (
          <TextField
            label={translate(text('reason'))}
            helperText={translate(text('reason_help'))}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            required
            fullWidth
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ mt: 2 }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate(text('cancel'))}</Button>
        <Button
          variant="contained"
          disabled={missing || pending}
          onClick={() => onConfirm(reason.trim())}
        >
          {translate(text('confirm'))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
