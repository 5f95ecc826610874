import { skipToken } from '@reduxjs/toolkit/query';
import type { ComponentType } from 'react';
import type { IconType } from 'react-icons';
import { LuDatabase, LuFile, LuFolder } from 'react-icons/lu';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { DatasetPickerDialog } from '../datasets/DatasetPickerDialog';
import { useLookupDatasetQuery } from '../datasets/datasetsApi';
import { FilePickerDialog } from '../files/FilePickerDialog';
import { useLookupFileQuery, useLookupFolderQuery } from '../files/filesApi';

// Params whose value is the id of something the user owns are set by choosing it, never by typing
// the id. A source says how to name a chosen id and which dialog chooses one; the field itself
// (PickerControl) is the same for all.

/** What the field shows for a chosen id. */
export interface Chosen {
  /** failed: the lookup itself failed (offline, server error); missing: the id names nothing of the user's any more. */
  status: 'loading' | 'found' | 'missing' | 'failed';
  name?: string;
  /** The folders it sits in, from the top level down (files and folders only). */
  path?: string[];
  /** Where the dialog starts browsing ('root' for the top level). */
  startFolderId?: string;
}

export interface PickerDialogProps {
  open: boolean;
  param: ParamOut;
  chosenId: string | null;
  chosen: Chosen | null;
  onChoose: (id: string) => void;
  onClose: () => void;
}

export interface PickerSource {
  icon: IconType;
  /** Catalog keys of what the field says when nothing is chosen, and when the chosen id names nothing. */
  emptyKey: string;
  missingKey: string;
  useChosen: (id: string | null) => Chosen | null;
  Dialog: ComponentType<PickerDialogProps>;
}

type Lookup<T> = { data?: T | null; isError: boolean };

function chosenFrom<T>(id: string | null, { data, isError }: Lookup<T>, found: (data: T) => Omit<Chosen, 'status'>): Chosen | null {
  if (!id) return null;
  if (data === undefined) return { status: isError ? 'failed' : 'loading' };
  return data === null ? { status: 'missing' } : { status: 'found', ...found(data) };
}

const fileSource: PickerSource = {
  icon: LuFile,
  emptyKey: 'params.picker.noFile',
  missingKey: 'params.picker.fileMissing',
  useChosen: (id) =>
    chosenFrom(id, useLookupFileQuery(id ?? skipToken), (file) => ({
      name: file.name,
      path: file.path.map((folder) => folder.name),
      startFolderId: file.folder_id ?? 'root',
    })),
  Dialog: ({ param, chosen, ...rest }) => (
    <FilePickerDialog kind="file" title={param.label} accept={param.accept} startFolderId={chosen?.startFolderId ?? 'root'} {...rest} />
  ),
};

const folderSource: PickerSource = {
  icon: LuFolder,
  emptyKey: 'params.picker.noFolder',
  missingKey: 'params.picker.folderMissing',
  useChosen: (id) =>
    chosenFrom(id, useLookupFolderQuery(id ?? skipToken), ({ folder, path }) => ({
      name: folder.name,
      // Where the folder is: its path without itself.
      path: path.slice(0, -1).map((p) => p.name),
      // Browsing starts inside it, so "Choose this folder" keeps the choice.
      startFolderId: folder.id,
    })),
  Dialog: ({ param, chosen, ...rest }) => <FilePickerDialog kind="folder" title={param.label} startFolderId={chosen?.startFolderId ?? 'root'} {...rest} />,
};

const datasetSource: PickerSource = {
  icon: LuDatabase,
  emptyKey: 'params.picker.noDataset',
  missingKey: 'params.picker.datasetMissing',
  useChosen: (id) => chosenFrom(id, useLookupDatasetQuery(id ?? skipToken), (dataset) => ({ name: dataset.name })),
  Dialog: ({ param, chosen: _chosen, ...rest }) => <DatasetPickerDialog title={param.label} {...rest} />,
};

export const pickerSources = { file: fileSource, folder: folderSource, dataset: datasetSource } satisfies Partial<Record<ParamOut['type'], PickerSource>>;
export type PickedType = keyof typeof pickerSources;

export const isPickedType = (type: ParamOut['type']): type is PickedType => type in pickerSources;
