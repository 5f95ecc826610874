import type { IconType } from 'react-icons';
import { LuCombine, LuDatabase, LuDownload, LuSparkles, LuWandSparkles } from 'react-icons/lu';
import type { StepCategory } from '../../../../server/src/modules/step-infos/step-infos.schemas';

/** How each catalogue category looks on the canvas and in the catalogue: a colour and an icon. */
export const categoryLook: Record<StepCategory, { palette: string; icon: IconType }> = {
  source: { palette: 'teal', icon: LuDatabase },
  transform: { palette: 'blue', icon: LuWandSparkles },
  combine: { palette: 'purple', icon: LuCombine },
  enrich: { palette: 'orange', icon: LuSparkles },
  output: { palette: 'green', icon: LuDownload },
};

export const unknownLook = { palette: 'gray', icon: LuWandSparkles };

export function lookOf(category: string | undefined) {
  return (category && categoryLook[category as StepCategory]) || unknownLook;
}
