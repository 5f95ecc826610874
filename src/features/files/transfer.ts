import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { apiBaseUrl } from '../../config/env';
import { translate } from '../../i18n/currentIntl';
import { requestHeaders } from '../../services/requestHeaders';
import type { Dispatch } from '@reduxjs/toolkit';
import { endExpiredSession } from '../auth/sessionExpired';
import { describeFailure, httpStatusOf } from '../notices/describeResponse';
import { addMessage } from '../notices/noticesSlice';
import type { NewNotice } from '../notices/noticesSlice';

// The calls RTK Query's fetch cannot make well: uploads with progress (XMLHttpRequest), downloads
// as blobs (the bearer token rules out a plain link) and byte ranges for previews. They send the
// same headers as the shared baseQuery (services/requestHeaders.ts), and their failures become
// notices through the same describeFailure the notices middleware uses.

export function apiUrl(path: string): string {
  return `${apiBaseUrl}${path}`;
}

/** A failed call in RTK Query's error shape, so describeFailure reads it like any other. */
export class TransferError extends Error {
  constructor(
    readonly error: FetchBaseQueryError,
    readonly statusText?: string,
  ) {
    super(typeof error.status === 'number' ? `HTTP ${error.status}` : String(error.status));
  }
  get httpStatus(): number | null {
    return typeof this.error.status === 'number' ? this.error.status : null;
  }
}

export class AbortedError extends Error {
  constructor() {
    super('aborted');
  }
}

/**
 * Reports a failed transfer as the notices middleware reports a failed API call: a 401 ends the
 * session (spec §8), anything else becomes its notices.
 */
export function reportTransferFailure(dispatch: Dispatch, err: unknown): void {
  if (err instanceof TransferError && httpStatusOf(err.error) === 401) return endExpiredSession(dispatch);
  for (const notice of describeTransferFailure(err)) dispatch(addMessage(notice));
}

/** The notices for a failure of one of these calls (an abort is the user's wish: none). */
export function describeTransferFailure(err: unknown): NewNotice[] {
  if (err instanceof AbortedError) return [];
  if (err instanceof TransferError) return describeFailure(err.error, err.statusText, translate);
  return [{ type: 'error', text: translate('notices.networkError') }];
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorOf(status: number, text: string): FetchBaseQueryError {
  const data = parseBody(text);
  return typeof data === 'string' ? { status: 'PARSING_ERROR', originalStatus: status, data, error: 'not JSON' } : { status, data };
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadHandle<T> {
  promise: Promise<T>;
  abort(): void;
}

/** One file, one multipart request, with progress; resolves with the server's JSON answer. */
export function uploadFile<T = unknown>(file: Blob, name: string, folderId: string | null, onProgress?: (p: UploadProgress) => void): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    const query = folderId ? `?folder_id=${encodeURIComponent(folderId)}` : '';
    xhr.open('POST', apiUrl(`/files/${query}`));
    for (const [key, value] of Object.entries(requestHeaders())) xhr.setRequestHeader(key, value);
    xhr.upload.onprogress = (event) => {
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(parseBody(xhr.responseText) as T);
      else reject(new TransferError(errorOf(xhr.status, xhr.responseText), xhr.statusText));
    };
    xhr.onerror = () => reject(new TransferError({ status: 'FETCH_ERROR', error: 'network' }));
    xhr.onabort = () => reject(new AbortedError());
    const form = new FormData();
    form.append('file', file, name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** A JSON call outside RTK Query (used by folder uploads, so creating 50 folders is not 50 toasts). */
export async function requestJson<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await send(method, path, body, signal);
  return parseBody(await response.text()) as T;
}

async function send(method: string, path: string, body?: unknown, signal?: AbortSignal, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { ...requestHeaders(), ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, credentials: 'same-origin' });
  } catch (err) {
    if (signal?.aborted) throw new AbortedError();
    throw new TransferError({ status: 'FETCH_ERROR', error: String(err) });
  }
  if (!response.ok) throw new TransferError(errorOf(response.status, await response.text()), response.statusText);
  return response;
}

/** A file's bytes, whole or the first `bytes` of it (HTTP Range), as a blob. */
export async function fetchFileBlob(fileId: string, options: { bytes?: number; signal?: AbortSignal } = {}): Promise<Blob> {
  const extra: Record<string, string> = options.bytes ? { Range: `bytes=0-${options.bytes - 1}` } : {};
  const response = await send('GET', `/files/files/${encodeURIComponent(fileId)}/download?disposition=inline`, undefined, options.signal, {
    ...extra,
    Accept: '*/*',
  });
  return response.blob();
}

/** A zip of the chosen files and folders, streamed by the server. */
export async function fetchZip(fileIds: string[], folderIds: string[], name: string): Promise<Blob> {
  const response = await send('POST', '/files/bulk-download', { file_ids: fileIds, folder_ids: folderIds, name }, undefined, { Accept: 'application/zip' });
  return response.blob();
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start reading before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadFile(fileId: string, name: string): Promise<void> {
  const response = await send('GET', `/files/files/${encodeURIComponent(fileId)}/download?disposition=attachment`, undefined, undefined, { Accept: '*/*' });
  saveBlob(await response.blob(), name);
}

/** Any API file download (a dataset as CSV), saved under `name`: the same headers as every call. */
export async function downloadFromApi(path: string, name: string): Promise<void> {
  const response = await send('GET', path, undefined, undefined, { Accept: '*/*' });
  saveBlob(await response.blob(), name);
}
