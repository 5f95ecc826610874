import { screen } from '@testing-library/react';
import { ReactFlowProvider } from '@xyflow/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { StepCanvas } from './StepCanvas';
import '../../../test/opensEditor';

const noop = () => undefined;

function renderCanvas(route: string) {
  return renderWithProviders(
    <ReactFlowProvider>
      <StepCanvas
        steps={[]}
        catalogue={undefined}
        selected={new Set()}
        onSelect={noop}
        onConnect={noop}
        onRemoveEdges={noop}
        onRemoveSteps={noop}
        onMoved={noop}
        onDropStep={noop}
        onTidy={noop}
      />
    </ReactFlowProvider>,
    { route },
  );
}

describe('canvas zoom controls', () => {
  it('are labelled (tooltip and accessible name) in Chinese on a Chinese page', async () => {
    renderCanvas('/cn/workflows/w-1');
    for (const name of ['放大', '缩小', '适应视图']) {
      expect(await screen.findByRole('button', { name })).toHaveAttribute('title', name);
    }
    expect(screen.queryByRole('button', { name: /zoom in/i })).not.toBeInTheDocument();
  });

  it('keep English labels on an English page', async () => {
    renderCanvas('/workflows/w-1');
    expect(await screen.findByRole('button', { name: 'Zoom in' })).toHaveAttribute('title', 'Zoom in');
    expect(screen.getByRole('button', { name: 'Fit to view' })).toBeInTheDocument();
  });
});
