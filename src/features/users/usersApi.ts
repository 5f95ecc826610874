import type { Locale, SettingsOut, SettingsPatchIn, UserOut } from '../../../server/src/modules/users/users.schemas';
import { baseApi } from '../../services/baseApi';

// The signed-in user's own account (spec §7 "Users").

export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<UserOut, void>({
      query: () => '/users/me',
      providesTags: ['User'],
    }),
    getSettings: build.query<SettingsOut, void>({
      query: () => '/users/me/settings',
      providesTags: ['Settings'],
    }),
    updateSettings: build.mutation<SettingsOut, SettingsPatchIn>({
      query: (body) => ({ url: '/users/me/settings', method: 'PATCH', body }),
      invalidatesTags: ['Settings', 'User'],
    }),
    /** The header's language switcher: saved quietly (the page has already changed language, and
     *  the server's "Settings saved." would come in the language being left). */
    saveLanguage: build.mutation<Omit<SettingsOut, 'message'>, Locale>({
      query: (locale) => ({ url: '/users/me/settings', method: 'PATCH', body: { locale } }),
      transformResponse: ({ message: _message, ...settings }: SettingsOut) => settings,
      invalidatesTags: ['Settings', 'User'],
    }),
  }),
});

export const { useGetMeQuery, useGetSettingsQuery, useUpdateSettingsMutation, useSaveLanguageMutation } = usersApi;
