import { Badge } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { AgentKind } from './conversationTypes';

const palette: Record<AgentKind, string> = { general: 'gray', coordinator: 'brand', step_param: 'teal', step_param_evaluation: 'orange' };

export function AgentBadge({ agent }: { agent: AgentKind }) {
  const intl = useIntl();
  return (
    <Badge size="sm" variant="subtle" colorPalette={palette[agent]} data-testid="agent-badge">
      {intl.formatMessage({ id: `chat.agent.${agent}` })}
    </Badge>
  );
}
