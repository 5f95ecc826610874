import type { CategoriesOut, StepCategory, StepInfoOut, StepInfoPage } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { baseApi } from '../../services/baseApi';

// Spec area "Step infos": the catalogue. Names and descriptions arrive already in the page's
// language (the base query sends Accept-Language). With `q` the server ranks by meaning.

export interface StepInfoListArgs {
  q?: string;
  category?: StepCategory;
  page_size?: number;
}

export const stepInfosApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listStepInfos: build.query<StepInfoPage, StepInfoListArgs>({
      query: ({ q, category, page_size = 200 }) => ({
        url: '/workflow-step-infos',
        params: { page_size, ...(q?.trim() ? { q: q.trim() } : {}), ...(category ? { category } : {}) },
      }),
      providesTags: [{ type: 'StepInfo', id: 'LIST' }],
    }),
    getStepInfo: build.query<StepInfoOut, string>({
      query: (id) => `/workflow-step-infos/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'StepInfo', id }],
    }),
    listStepCategories: build.query<CategoriesOut, void>({
      query: () => '/workflow-step-infos/categories',
      providesTags: [{ type: 'StepInfo', id: 'CATEGORIES' }],
    }),
  }),
});

export const { useListStepInfosQuery, useGetStepInfoQuery, useListStepCategoriesQuery } = stepInfosApi;

/** The whole catalogue by id (one request, cached): what the canvas and the forms look types up in. */
export function useStepCatalogue() {
  const result = useListStepInfosQuery({});
  const byId = result.data?.items;
  return { ...result, byId: byId ? new Map(byId.map((info) => [info.id, info])) : undefined };
}
