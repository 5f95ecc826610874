// The login call is an OAuth2 password form (spec §5): form-encoded, every non-null field sent as
// text. Passing URLSearchParams as the body lets fetch set the
// application/x-www-form-urlencoded content type itself.

export type FormFields = Record<string, string | number | boolean | null | undefined>;

export function formEncoded(fields: FormFields): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined) params.append(key, String(value));
  }
  return params;
}
