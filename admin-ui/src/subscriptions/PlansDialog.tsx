import ViewList from '@mui/icons-material/ViewList';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useState } from 'react';
import { useGetList, useNotify, useTranslate } from 'react-admin';
import { Money } from '../payments/Money';
import { PlanFormDialog } from './PlanFormDialog';
import { Interval } from './StatusChip';
import { archivePlan, type Plan } from './subscriptionApi';

const label = (name: string) => `app.subscriptions.plans.${name}`;

function ArchiveConfirm({
  plan,
  onClose,
  onDone,
}: {
  plan: Plan;
  onClose: () => void;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const archive = async () => {
    setBusy(true);
    try {
      await archivePlan(plan.id);
      notify(label('archived_done'), { type: 'info' });
      onDone();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-describedby="archive-plan-text">
      <DialogContent>
        <Typography id="archive-plan-text">
          {translate(label('archive_confirm'), { name: plan.name })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.subscriptions.cancel_dialog')}</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={() => void archive()}>
          {translate(label('archive'))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PlanRow({
  plan,
  onEdit,
  onArchive,
}: {
  plan: Plan;
  onEdit: () => void;
  onArchive: () => void;
}) {
  const translate = useTranslate();
  const active = plan.status === 'active';
  return (
    <ListItem divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }} data-testid="plan">
      <ListItemText
        sx={{ minWidth: 200 }}
        primary={
          <Box
            component="span"
            sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
          >
            <bdi style={{ fontWeight: 600 }}>{plan.name}</bdi>
            {!active && <Chip size="small" label={translate(label('archived'))} />}
          </Box>
        }
        secondary={
          <>
            <Money cents={plan.amountCents} /> ·{' '}
            <Interval interval={plan.interval} count={plan.intervalCount} /> ·{' '}
            {translate(label('in_use'), { smart_count: plan.activeSubscriptions })}
          </>
        }
        slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
      />
      {active && (
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button size="small" onClick={onEdit}>
            {translate(label('edit'))}
          </Button>
          <Button size="small" color="error" onClick={onArchive}>
            {translate(label('archive'))}
          </Button>
        </Stack>
      )}
    </ListItem>
  );
}

/** The company's plans: create, edit and archive (never delete: subscriptions point at them). */
export function PlansDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [archiving, setArchiving] = useState<Plan | null>(null);
  const list = useGetList<Plan>('plans', {
    sort: { field: 'createdAt', order: 'DESC' },
    pagination: { page: 1, perPage: 100 },
  });
  const reload = () => void list.refetch();
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="sm"
      aria-labelledby="plans-title"
    >
      <DialogTitle id="plans-title">{translate(label('title'))}</DialogTitle>
      <DialogContent>
        {list.isPending && <LinearProgress aria-label={translate(label('title'))} />}
        {list.error && <Alert severity="error">{(list.error as Error).message}</Alert>}
        {list.data?.length === 0 && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <ViewList sx={{ fontSize: 56, color: 'text.disabled' }} />
            <Typography>{translate(label('empty'))}</Typography>
          </Box>
        )}
        {list.data && list.data.length > 0 && (
          <List dense>
            {list.data.map((plan) => (
              <PlanRow
                key={plan.id}
                plan={plan}
                onEdit={() => setEditing(plan)}
                onArchive={() => setArchiving(plan)}
              />
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => setEditing('new')}>
          {translate(label('new'))}
        </Button>
        <Button onClick={onClose}>{translate('app.subscriptions.close')}</Button>
      </DialogActions>
      {editing && (
        <PlanFormDialog
          plan={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {archiving && (
        <ArchiveConfirm
          plan={archiving}
          onClose={() => setArchiving(null)}
          onDone={() => {
            setArchiving(null);
            reload();
          }}
        />
      )}
    </Dialog>
  );
}
