import { Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuTicket } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { TextField } from '../../components/TextField';
import { useFieldErrors } from '../auth/useFieldErrors';
import { requiredProblem } from '../auth/validation';
import { useRedeemInvitationCodeMutation } from './betaApi';
import { INVITATION_CODE_MAX } from './betaTypes';

/**
 * "Have an invitation code?": an account made before invite-only mode, or one that was emailed a
 * code, joins with it. The server's answer is the new status, which refreshes the page's status
 * card; its refusals (unknown, used up, expired) appear under the field.
 */
export function RedeemCodeForm() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [redeem, { isLoading }] = useRedeemInvitationCodeMutation();
  const [code, setCode] = useState('');
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'code'>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check({ code: requiredProblem(code, 'beta.redeem.required') })) return;
    const result = await redeem({ invitation_code: code.trim() });
    if ('data' in result) setCode('');
    else showServerErrors(result.error, { invitation_code: 'code' });
  };

  return (
    <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted" asChild>
      <form onSubmit={onSubmit} noValidate aria-labelledby="beta-redeem-title">
        <Card.Body gap="4">
          <Stack gap="1">
            <Heading as="h2" size="md" id="beta-redeem-title">
              {t('beta.redeem.title')}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {t('beta.redeem.subtitle')}
            </Text>
          </Stack>
          <TextField
            label={t('beta.redeem.code')}
            name="invitation_code"
            size="md"
            autoComplete="off"
            spellCheck={false}
            placeholder="STEP-XXXX-XXXX"
            maxLength={INVITATION_CODE_MAX}
            value={code}
            error={errorFor('code')}
            onChange={(e) => {
              setCode(e.target.value);
              clear('code');
            }}
          />
        </Card.Body>
        <Card.Footer justifyContent="flex-end">
          <Button type="submit" variant="outline" colorPalette="brand" loading={isLoading}>
            <LuTicket aria-hidden />
            {t('beta.redeem.submit')}
          </Button>
        </Card.Footer>
      </form>
    </Card.Root>
  );
}
