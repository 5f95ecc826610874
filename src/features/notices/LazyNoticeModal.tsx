import { Suspense, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { lazyComponent } from '../../app/lazyComponent';
import { selectFirstModalMessage } from './noticesSlice';

const NoticeModal = lazyComponent(() => import('./NoticeModal').then((m) => m.NoticeModal));

/**
 * The NoticeModal, downloaded when the first modal message arrives: a dialog brings a focus trap
 * and its friends, which most visits never need. Once there it stays mounted, so it can animate out.
 */
export function LazyNoticeModal() {
  const hasModal = useAppSelector((state) => Boolean(selectFirstModalMessage(state)));
  const [needed, setNeeded] = useState(false);
  if (hasModal && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NoticeModal />
    </Suspense>
  );
}
