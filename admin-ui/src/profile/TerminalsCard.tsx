import Delete from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/EditOutlined';
import {
  Button,
  Card,
  CardContent,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  type RaRecord,
  useCreate,
  useDelete,
  useGetList,
  useNotify,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { formErrorsOrToast } from '../auth/submitErrors';
import { refreshProfile } from '../session/refreshProfile';

export const maxTerminals = 3;

interface Terminal extends RaRecord {
  name: string;
  deviceId: string;
  slot: number;
}

const afterChange = () => void refreshProfile().catch(() => undefined);

function RenameForm({ terminal, onDone }: { terminal: Terminal; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<Terminal>();
  const [name, setName] = useState(terminal.name);
  const submit = () =>
    update(
      'terminals',
      { id: terminal.id, data: { name: name.trim() }, previousData: terminal },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.terminals.renamed', { type: 'success' });
          afterChange();
          onDone();
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', width: '100%' }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextField
        size="small"
        label={translate('app.terminals.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoFocus
        sx={{ flex: 1 }}
      />
      <Button type="submit" variant="contained" disabled={isPending || name.trim() === ''}>
        {translate('app.terminals.save')}
      </Button>
      <Button onClick={onDone}>{translate('app.terminals.cancel')}</Button>
    </Stack>
  );
}

function AddTerminalForm() {
  const translate = useTranslate();
  const notify = useNotify();
  const [create, { isPending }] = useCreate<Terminal>();
  const [name, setName] = useState('');
  const [deviceId, setDeviceId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = () =>
    create(
      'terminals',
      { data: { name: name.trim(), deviceId: deviceId.trim() } },
      {
        onSuccess: () => {
          notify('app.terminals.added', { type: 'success' });
          setName('');
          setDeviceId('');
          setErrors({});
          afterChange();
        },
        onError: (error) =>
          setErrors(
            formErrorsOrToast(error, (message) => notify(message, { type: 'error' })) ?? {},
          ),
      },
    );
  return (
    <Stack
      component="form"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' } }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextField
        size="small"
        label={translate('app.terminals.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={Boolean(errors.name)}
        helperText={errors.name}
      />
      <TextField
        size="small"
        label={translate('app.terminals.device_id')}
        value={deviceId}
        slotProps={{ htmlInput: { dir: 'ltr' } }}
        onChange={(event) => setDeviceId(event.target.value)}
        error={Boolean(errors.deviceId)}
        helperText={errors.deviceId}
      />
      <Button
        type="submit"
        variant="contained"
        sx={{ whiteSpace: 'nowrap', flexShrink: 0, alignSelf: { sm: 'center' } }}
        disabled={isPending || !name.trim() || !deviceId.trim()}
      >
        {translate('app.terminals.add')}
      </Button>
    </Stack>
  );
}

/** Register, rename and remove the company's payment terminals (at most three). */
export function TerminalsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { data: terminals = [], isPending } = useGetList<Terminal>('terminals', {
    pagination: { page: 1, perPage: maxTerminals },
    sort: { field: 'slot', order: 'ASC' },
  });
  const [remove] = useDelete<Terminal>();
  const [renaming, setRenaming] = useState<Terminal['id']>();
  const removeTerminal = (terminal: Terminal) => {
    if (!window.confirm(translate('app.terminals.remove_confirm', { name: terminal.name }))) return;
    remove(
      'terminals',
      { id: terminal.id, previousData: terminal },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.terminals.removed', { type: 'success' });
          afterChange();
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  };
  return (
    <Card component="section" aria-labelledby="terminals-title">
      <CardContent>
        <Typography id="terminals-title" variant="h6" component="h2" gutterBottom>
          {translate('app.terminals.title')}
        </Typography>
        {!isPending && terminals.length === 0 && (
          <Typography color="text.secondary">{translate('app.terminals.empty')}</Typography>
        )}
        <List aria-labelledby="terminals-title">
          {terminals.map((terminal) => (
            <ListItem
              key={terminal.id}
              divider
              secondaryAction={
                renaming === terminal.id ? undefined : (
                  <>
                    <Tooltip title={translate('app.terminals.rename')}>
                      <IconButton
                        aria-label={`${translate('app.terminals.rename')} ${terminal.name}`}
                        onClick={() => setRenaming(terminal.id)}
                      >
                        <Edit />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={translate('app.terminals.remove')}>
                      <IconButton
                        aria-label={`${translate('app.terminals.remove')} ${terminal.name}`}
                        onClick={() => removeTerminal(terminal)}
                      >
                        <Delete />
                      </IconButton>
                    </Tooltip>
                  </>
                )
              }
            >
              {renaming === terminal.id ? (
                <RenameForm terminal={terminal} onDone={() => setRenaming(undefined)} />
              ) : (
                <ListItemText
                  primary={terminal.name}
                  secondary={
                    <>
                      {`${translate('app.terminals.slot')} ${terminal.slot} · `}
                      <bdi>{terminal.deviceId}</bdi>
                    </>
                  }
                />
              )}
            </ListItem>
          ))}
        </List>
        {terminals.length < maxTerminals ? (
          <AddTerminalForm />
        ) : (
          <Typography color="text.secondary" role="status">
            {translate('app.terminals.limit')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
