// Checks the browser can make before bothering the server. Each returns a message id or null;
// the server still validates everything and its answer is shown by the notices middleware.

export const MIN_PASSWORD_LENGTH = 8;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(value: string): string | null {
  if (!value.trim()) return 'validation.email.required';
  if (!EMAIL_SHAPE.test(value.trim())) return 'validation.email.invalid';
  return null;
}

export function newPasswordProblem(value: string): string | null {
  if (!value) return 'validation.password.required';
  if (value.length < MIN_PASSWORD_LENGTH) return 'validation.password.tooShort';
  return null;
}

export function requiredProblem(value: string, messageId: string): string | null {
  return value.trim() ? null : messageId;
}
