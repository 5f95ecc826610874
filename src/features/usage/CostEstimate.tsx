import { HStack, Link, Text, VisuallyHidden } from '@chakra-ui/react';
import { LuCoins, LuTriangleAlert } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';
import { formatCredits } from './format';
import { useGetCostEstimateQuery, type CostEstimateArgs } from './usageApi';

/**
 * What a run would cost and what the user has, shown beside the run controls before starting. A run
 * is refused below its estimate (402 with a "Top up" modal); this says so before the click. Nothing
 * shows when the server does not bill (self-hosted) or the estimate cannot be had.
 *
 * When a priced step's records are only known by running (a filter's output, an Excel file), the
 * server says `unknown` and this says "unknown" (or "at least" the known part), never "≈ 0".
 * `preview`: the estimate of a preview run (`sampleSize` records per source), said as the preview's.
 */
export function CostEstimate({ compact = false, preview = false, ...args }: CostEstimateArgs & { compact?: boolean; preview?: boolean }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { data } = useGetCostEstimateQuery(args);
  if (!data || !data.billing_enabled) return null;

  const values = { count: data.credits, credits: formatCredits(intl, data.credits), balance: formatCredits(intl, data.balance), records: args.sampleSize ?? 0 };
  const known = !data.unknown ? 'known' : data.credits > 0 ? 'atLeast' : 'unknown';
  const key = preview
    ? { known: 'billing.estimate.preview', atLeast: 'billing.estimate.previewAtLeast', unknown: 'billing.estimate.previewUnknown' }[known]
    : compact
      ? { known: 'billing.estimate.short', atLeast: 'billing.estimate.atLeastShort', unknown: 'billing.estimate.unknownShort' }[known]
      : { known: 'billing.estimate.text', atLeast: 'billing.estimate.atLeastText', unknown: 'billing.estimate.unknownText' }[known];
  const breakdown = data.lines
    .map((line) => `${line.step_name}: ${line.unknown ? t('billing.estimate.lineUnknown') : formatCredits(intl, line.credits)}`)
    .join('\n');
  return (
    <HStack
      gap="1.5"
      textStyle="xs"
      color={data.enough ? 'fg.muted' : 'orange.fg'}
      title={breakdown || undefined}
      data-testid={preview ? 'preview-cost-estimate' : 'cost-estimate'}
      data-unknown={data.unknown || undefined}
      flexShrink="0"
    >
      {data.enough ? <LuCoins aria-hidden /> : <LuTriangleAlert aria-hidden />}
      <Text as="span">{t(key, values)}</Text>
      {!data.enough && (
        <>
          <VisuallyHidden>{t('billing.estimate.notEnough')}</VisuallyHidden>
          <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="semibold">
            <LocaleLink to="/billing">{t('payments.topUp.title')}</LocaleLink>
          </Link>
        </>
      )}
    </HStack>
  );
}
