import { Badge, Button, Card, Flex, Heading, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuBan, LuCheck, LuCopy, LuMail, LuTicket } from 'react-icons/lu';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RelativeTime } from '../../components/RelativeTime';
import { TextField } from '../../components/TextField';
import { AdminHeader } from '../admin/AdminHeader';
import { useFieldErrors } from '../auth/useFieldErrors';
import { DataTable, EmptyListState } from '../../components/DataTable';
import {
  useCreateInvitationCodesMutation,
  useInviteBetaRequestMutation,
  useListBetaRequestsQuery,
  useListInvitationCodesQuery,
  useRevokeInvitationCodeMutation,
} from './betaApi';
import { CODES_PER_BATCH_MAX, INVITATION_STATES, MAX_USES_MAX, NOTE_MAX, type InvitationCode, type InvitationState } from './betaTypes';

const PAGE_SIZE = 20;

const STATE_PALETTE: Record<InvitationState, string> = { active: 'green', used_up: 'gray', expired: 'orange', revoked: 'red' };

function StateBadge({ state }: { state: InvitationState }) {
  return (
    <Badge colorPalette={STATE_PALETTE[state]} variant="subtle" rounded="full" px="2">
      <FormattedMessage id={`admin.codes.state.${state}`} />
    </Badge>
  );
}

/** A whole number within [min, max], or null. */
function wholeNumberIn(text: string, min: number, max: number): number | null {
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** Copies one code; the button says "Copied" until another is copied. */
function CopyButton({ code, copied, onCopied }: { code: string; copied: boolean; onCopied: (code: string) => void }) {
  const intl = useIntl();
  const copy = async () => {
    await navigator.clipboard.writeText(code);
    onCopied(code);
  };
  return (
    <Button
      size="xs"
      variant="outline"
      onClick={() => void copy()}
      aria-label={intl.formatMessage({ id: copied ? 'admin.codes.copied' : 'admin.codes.copyNamed' }, { code })}
    >
      {copied ? <LuCheck aria-hidden /> : <LuCopy aria-hidden />}
      <FormattedMessage id={copied ? 'admin.codes.copied' : 'admin.codes.copy'} />
    </Button>
  );
}

function CreateCodesForm() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const [create, { isLoading }] = useCreateInvitationCodesMutation();
  const [count, setCount] = useState('1');
  const [maxUses, setMaxUses] = useState('1');
  const [expiresOn, setExpiresOn] = useState('');
  const [note, setNote] = useState('');
  const [created, setCreated] = useState<InvitationCode[]>([]);
  const [copied, setCopied] = useState<string | null>(null);
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'count' | 'maxUses' | 'expiresOn' | 'note'>();
  // A date input gives a day: the code works until that day ends, in the admin's time zone.
  const expiresAt = expiresOn ? new Date(`${expiresOn}T23:59:59`) : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const countValue = wholeNumberIn(count, 1, CODES_PER_BATCH_MAX);
    const maxUsesValue = wholeNumberIn(maxUses, 1, MAX_USES_MAX);
    const valid = check({
      count: countValue === null ? 'admin.codes.count.invalid' : null,
      maxUses: maxUsesValue === null ? 'admin.codes.maxUses.invalid' : null,
      expiresOn: expiresAt && !(expiresAt.getTime() > Date.now()) ? 'admin.codes.expires.past' : null,
    });
    if (!valid || countValue === null || maxUsesValue === null) return;
    const result = await create({
      count: countValue,
      max_uses: maxUsesValue,
      ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    if ('data' in result && result.data) {
      setCreated(result.data.items);
      setCopied(null);
      setNote('');
    } else {
      showServerErrors(result.error, { count: 'count', max_uses: 'maxUses', expires_at: 'expiresOn', note: 'note' });
    }
  };

  return (
    <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted">
      <Card.Body gap="5">
        <Heading as="h2" size="md">
          {t('admin.codes.create.title')}
        </Heading>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="4">
            <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
              <TextField
                label={t('admin.codes.count')}
                name="count"
                type="number"
                size="md"
                min={1}
                max={CODES_PER_BATCH_MAX}
                helperText={t('admin.codes.count.hint', { max: CODES_PER_BATCH_MAX })}
                value={count}
                error={errorFor('count')}
                onChange={(e) => {
                  setCount(e.target.value);
                  clear('count');
                }}
              />
              <TextField
                label={t('admin.codes.maxUses')}
                name="max_uses"
                type="number"
                size="md"
                min={1}
                max={MAX_USES_MAX}
                helperText={t('admin.codes.maxUses.hint')}
                value={maxUses}
                error={errorFor('maxUses')}
                onChange={(e) => {
                  setMaxUses(e.target.value);
                  clear('maxUses');
                }}
              />
              <TextField
                label={t('admin.codes.expires')}
                name="expires_on"
                type="date"
                size="md"
                helperText={t('admin.codes.expires.hint')}
                value={expiresOn}
                error={errorFor('expiresOn')}
                onChange={(e) => {
                  setExpiresOn(e.target.value);
                  clear('expiresOn');
                }}
              />
            </Flex>
            <TextField
              label={t('admin.codes.note')}
              name="note"
              size="md"
              maxLength={NOTE_MAX}
              helperText={t('admin.codes.note.hint')}
              value={note}
              error={errorFor('note')}
              onChange={(e) => {
                setNote(e.target.value);
                clear('note');
              }}
            />
            <Flex justify="flex-end">
              <Button type="submit" colorPalette="brand" loading={isLoading}>
                <LuTicket aria-hidden />
                {t('admin.codes.create.submit')}
              </Button>
            </Flex>
          </Stack>
        </form>
        {created.length > 0 && (
          <Stack gap="2" borderWidth="1px" borderColor="green.muted" bg="green.subtle" rounded="xl" p="4">
            <Text fontWeight="semibold">
              <FormattedMessage id="admin.codes.created" values={{ count: created.length }} />
            </Text>
            <Stack as="ul" listStyleType="none" gap="2" aria-label={t('admin.codes.createdLabel')}>
              {created.map((code) => (
                <HStack as="li" key={code.id} justify="space-between" gap="3">
                  <Text fontFamily="mono" fontWeight="semibold" letterSpacing="wider">
                    {code.code}
                  </Text>
                  <CopyButton code={code.code} copied={copied === code.code} onCopied={setCopied} />
                </HStack>
              ))}
            </Stack>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function CodesList() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [state, setState] = useState<InvitationState | ''>('');
  const [page, setPage] = useState(1);
  const [copied, setCopied] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<InvitationCode | null>(null);
  const { data, isLoading } = useListInvitationCodesQuery({ page, pageSize: PAGE_SIZE, ...(state ? { state } : {}) });
  const [revoke, { isLoading: revokeBusy }] = useRevokeInvitationCodeMutation();

  return (
    <Stack gap="4">
      <Flex gap="3" align={{ base: 'stretch', sm: 'center' }} direction={{ base: 'column', sm: 'row' }} justify="space-between">
        <Heading as="h2" size="lg">
          {t('admin.codes.list.title')}
        </Heading>
        <NativeSelect.Root width={{ base: 'full', sm: '48' }} size="sm">
          <NativeSelect.Field
            bg="bg.panel"
            aria-label={t('admin.codes.filter.state')}
            value={state}
            onChange={(e) => {
              setState(e.target.value as InvitationState | '');
              setPage(1);
            }}
          >
            <option value="">{t('admin.codes.filter.all')}</option>
            {INVITATION_STATES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.codes.state.${value}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      <DataTable
        label={t('admin.codes.list.title')}
        isLoading={isLoading}
        rows={data?.items ?? (isLoading ? undefined : [])}
        rowKey={(code) => code.id}
        rowLabel={(code) => code.code}
        empty={<EmptyListState title={t('admin.codes.list.empty')} />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
        columns={[
          {
            id: 'code',
            header: t('admin.codes.column.code'),
            cellProps: { fontFamily: 'mono', fontWeight: 'semibold', whiteSpace: 'nowrap' },
            cell: (code) => code.code,
          },
          { id: 'state', header: t('admin.codes.column.state'), cell: (code) => <StateBadge state={code.state} /> },
          {
            id: 'uses',
            header: t('admin.codes.column.uses'),
            cellProps: { whiteSpace: 'nowrap' },
            cell: (code) => <FormattedMessage id="admin.codes.usesOf" values={{ uses: code.uses, max: code.max_uses }} />,
          },
          {
            id: 'usedBy',
            header: t('admin.codes.column.usedBy'),
            cell: (code) =>
              code.uses_by.length === 0 ? (
                <Text color="fg.muted">—</Text>
              ) : (
                <Stack gap="0.5">
                  {code.uses_by.map((use) => (
                    <Text key={`${use.email}-${use.used_at}`} textStyle="sm" title={use.email}>
                      {use.name} · <RelativeTime value={use.used_at} />
                    </Text>
                  ))}
                </Stack>
              ),
          },
          {
            id: 'expires',
            header: t('admin.codes.column.expires'),
            cellProps: { whiteSpace: 'nowrap' },
            cell: (code) =>
              code.expires_at ? <FormattedDate value={code.expires_at} dateStyle="medium" /> : <Text color="fg.muted">{t('admin.codes.never')}</Text>,
          },
          { id: 'note', header: t('admin.codes.column.note'), cellProps: { maxW: 'xs' }, cell: (code) => <Text truncate>{code.note ?? ''}</Text> },
          {
            id: 'created',
            header: t('admin.codes.column.created'),
            cell: (code) => (
              <>
                <Text textStyle="sm">{code.created_by_name ?? '—'}</Text>
                <Text textStyle="xs" color="fg.muted">
                  <RelativeTime value={code.created_at} />
                </Text>
              </>
            ),
          },
          {
            id: 'actions',
            header: t('admin.codes.column.actions'),
            align: 'end',
            cell: (code) => (
              <HStack gap="2" justify="flex-end">
                <CopyButton code={code.code} copied={copied === code.code} onCopied={setCopied} />
                {code.state === 'active' && (
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette="red"
                    aria-label={intl.formatMessage({ id: 'admin.codes.revokeNamed' }, { code: code.code })}
                    onClick={() => setRevoking(code)}
                  >
                    <LuBan aria-hidden />
                    {t('admin.codes.revoke')}
                  </Button>
                )}
              </HStack>
            ),
          },
        ]}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t('admin.codes.revoke.title')}
        body={intl.formatMessage({ id: 'admin.codes.revoke.body' }, { code: revoking?.code ?? '' })}
        confirmLabel={t('admin.codes.revoke')}
        destructive
        loading={revokeBusy}
        onCancel={() => setRevoking(null)}
        onConfirm={async () => {
          if (revoking) await revoke(revoking.id);
          setRevoking(null);
        }}
      />
    </Stack>
  );
}

function BetaRequestsList() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [page, setPage] = useState(1);
  const { data, isLoading } = useListBetaRequestsQuery({ page, pageSize: PAGE_SIZE });
  const [invite, { isLoading: inviting, originalArgs }] = useInviteBetaRequestMutation();
  return (
    <Stack gap="4">
      <Stack gap="1">
        <Heading as="h2" size="lg">
          {t('admin.requests.title')}
        </Heading>
        <Text color="fg.muted">{t('admin.requests.subtitle')}</Text>
      </Stack>
      <DataTable
        label={t('admin.requests.title')}
        isLoading={isLoading}
        rows={data?.items ?? (isLoading ? undefined : [])}
        rowKey={(request) => request.id}
        rowLabel={(request) => request.user.name ?? request.user.email}
        empty={<EmptyListState title={t('admin.requests.empty')} variant="state" py="6" />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
        columns={[
          {
            id: 'user',
            header: t('admin.requests.column.user'),
            cell: (request) => (
              <>
                <Text>{request.user.name ?? request.user.email}</Text>
                <Text textStyle="xs" color="fg.muted">
                  {/* A visitor asked without an account (signed out, from the sign-up page). */}
                  {request.user.name ? request.user.email : null}
                  {request.user.id === null && (
                    <Badge ms={request.user.name ? '2' : '0'} size="xs" variant="outline" rounded="full">
                      {t('admin.requests.visitor')}
                    </Badge>
                  )}
                </Text>
              </>
            ),
          },
          {
            id: 'useCase',
            header: t('admin.requests.column.useCase'),
            cellProps: { maxW: 'md' },
            cell: (request) => (
              <Text lineClamp={3} title={request.use_case}>
                {request.use_case}
              </Text>
            ),
          },
          { id: 'company', header: t('admin.requests.column.company'), cell: (request) => request.company ?? '—' },
          { id: 'heardFrom', header: t('admin.requests.column.heardFrom'), cell: (request) => request.heard_from ?? '—' },
          {
            id: 'status',
            header: t('admin.requests.column.status'),
            cell: (request) => (
              <Badge colorPalette={request.status === 'invited' ? 'green' : 'blue'} variant="subtle" rounded="full" px="2">
                <FormattedMessage id={`admin.requests.status.${request.status}`} />
              </Badge>
            ),
          },
          {
            id: 'actions',
            header: t('admin.codes.column.actions'),
            align: 'end',
            cell: (request) =>
              request.status === 'pending' && (
                <Button
                  size="xs"
                  colorPalette="brand"
                  variant="surface"
                  loading={inviting && originalArgs === request.id}
                  aria-label={intl.formatMessage({ id: 'admin.requests.inviteNamed' }, { name: request.user.name ?? request.user.email })}
                  onClick={() => void invite(request.id)}
                >
                  <LuMail aria-hidden />
                  {t('admin.requests.invite')}
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}

/** `/admin/invitation-codes` (admins): make codes for the beta, see who used them, answer requests. */
export function InvitationCodesPage() {
  usePageTitle('admin.tab.invitationCodes');
  return (
    <Stack gap="8">
      <AdminHeader current="invitation-codes" />
      <CreateCodesForm />
      <CodesList />
      <BetaRequestsList />
    </Stack>
  );
}
