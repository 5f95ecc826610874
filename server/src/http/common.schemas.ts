import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringEnum } from '../lib/typebox';

// Shapes every area shares. The client reads these exact fields (spec §3, §7, §8).

export { StringEnum };

export const Id = Type.String({ description: 'A UUID', minLength: 1, maxLength: 64 });

export const Modal = Type.Object({
  modal_id: Type.String(),
  level: StringEnum(['success', 'warning', 'error', 'info']),
  content: Type.String(),
  buttons: Type.Array(Type.String()),
});
export type Modal = Static<typeof Modal>;

/** Optional notices a success body may carry; the client shows them (spec §7). */
export const Notices = {
  message: Type.Optional(Type.String()),
  warnings: Type.Optional(Type.Array(Type.String())),
  modal: Type.Optional(Modal),
};

export const MessageOut = Type.Object({ ...Notices });
export type MessageOut = Static<typeof MessageOut>;

export const ErrorOut = Type.Object({ detail: Type.String(), modal: Type.Optional(Modal) }, { $id: 'ErrorOut' });
export type ErrorOut = Static<typeof ErrorOut>;

export const ValidationErrorOut = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        msg: Type.String(),
        loc: Type.Array(Type.Union([Type.String(), Type.Number()])),
      }),
    ),
  },
  { $id: 'ValidationErrorOut' },
);
export type ValidationErrorOut = Static<typeof ValidationErrorOut>;

export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});
export type PageQuery = Static<typeof PageQuery>;

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    page_size: Type.Integer(),
  });
export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}
